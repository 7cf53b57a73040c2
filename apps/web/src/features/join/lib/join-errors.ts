import { MESSAGES } from '@circles/shared'
import { ApiError } from '@/lib/api-client'
import { translateServerError } from '@/lib/server-errors'

/** Spec 000 §4: an answer saying the invitation was already used means "accepted", not "error". */
export function isAlreadyProcessed(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false
  return (
    error.code === 'INVITATION_ACCEPTED' || /already been processed|already accepted/i.test(error.message)
  )
}

/**
 * The text of a failed verify or accept call (spec 000 §8): expired and not-found have their own texts,
 * another refusal shows the server's message, anything else (network, 5xx) the call's fallback.
 */
export function invitationErrorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    if (error.status === 410 || error.code === 'INVITATION_EXPIRED') {
      return translateServerError(MESSAGES.invitationExpired)
    }
    if (error.status === 404) return translateServerError(MESSAGES.invitationNotFound)
    if (error.status >= 400 && error.status < 500 && error.code !== 'INVALID_RESPONSE') {
      return translateServerError(error.message)
    }
  }
  return translateServerError(fallback)
}

/** The info text for an invitation that was already used: the server's own words when it sent some. */
export function alreadyAcceptedText(error?: unknown): string {
  if (error instanceof ApiError && /already accepted/i.test(error.message)) {
    return translateServerError(error.message)
  }
  return translateServerError(MESSAGES.invitationAlreadyAccepted)
}
