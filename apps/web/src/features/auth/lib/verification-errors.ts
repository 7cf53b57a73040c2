import { MESSAGES } from '@circles/shared'
import { ApiError } from '@/lib/api-client'
import { failureText, translateServerError } from '@/lib/server-errors'
import type { AuthT } from './use-auth-translation'

/** The spec's text (000 §8) for a verification that did not go through. */
export function verificationErrorText(error: unknown, t: AuthT): string {
  if (!(error instanceof ApiError)) return t('verify.failed')
  if (error.status === 429) return translateServerError(MESSAGES.tooManyVerifications)
  if (error.code === 'NETWORK_ERROR') return t('verify.network')
  if (error.code === 'INVALID_RESPONSE') return t('verify.invalidStatus')
  return failureText(error, t('verify.failed'))
}
