import { MESSAGES, type MessageKey } from '@circles/shared'
import { ApiError } from '@/lib/api-client'
import { i18n } from '@/lib/i18n'

// The server answers with the spec's English texts; the key lets a German screen show German.
const keyByText = new Map<string, MessageKey>(
  Object.entries(MESSAGES).map(([key, text]) => [text, key as MessageKey]),
)

/** The MESSAGES key whose text this is, if any. */
export function messageKeyOf(text: string): MessageKey | undefined {
  return keyByText.get(text.trim())
}

/**
 * A server message in the user's language. Unknown texts pass through unchanged (better the server's
 * English than nothing); no message at all gives the translated 'Something went wrong'.
 */
export function translateServerError(message: string | null | undefined): string {
  if (!message) return i18n.t('somethingWentWrong', { ns: 'errors' })
  const key = messageKeyOf(message)
  return key ? i18n.t(key, { ns: 'errors' }) : message
}

/** The text to show for anything a call or an action threw. */
export function errorMessage(error: unknown): string {
  return translateServerError(error instanceof Error ? error.message : undefined)
}

/** True when a failed answer's body carried a `message` of its own. */
function answeredWithMessage(error: ApiError): boolean {
  const { data } = error
  if (error.code === 'INVALID_RESPONSE' || typeof data !== 'object' || data === null) return false
  const message = (data as { message?: unknown }).message
  return typeof message === 'string' && message.length > 0
}

/**
 * "The server message, else the error message, else a generic text" (spec 000 §8, docs/decisions/0020):
 * `fallback` is for an answer without a message, which the API client would otherwise report as
 * 'Something went wrong'. A failure with no answer keeps its own text ('Failed to put me: …').
 */
export function failureMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status > 0 && !answeredWithMessage(error)) return fallback
  return error instanceof Error && error.message ? translateServerError(error.message) : fallback
}
