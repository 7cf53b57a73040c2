import { isMessageKey, type MessageKey, messageKeyOf } from '@circles/shared'
import { ApiError } from '@/lib/api-client'
import { i18n } from '@/lib/i18n'

/**
 * The one place that turns a failure into the text to show (issue 23, docs/decisions/0032): a failed
 * answer, a thrown error, a network failure, a socket refusal or a socket's error event. By the key the
 * server sends first (its message's name in MESSAGES, translated in locales/<lang>/errors.json), so a
 * reworded message on the server keeps its translation; else the server's English message (translated
 * when it is word for word one of MESSAGES); else the caller's generic text.
 * `features/auth/lib/api-errors.ts` re-exports from here.
 */

export { messageKeyOf }

/**
 * The key a failure names: an answer's body (`ApiError.data`), a socket refusal's `data`, a payload;
 * else the key of its message when that is word for word one of MESSAGES (a server older than keys).
 */
export function failureKey(failure: unknown): MessageKey | undefined {
  if (typeof failure !== 'object' || failure === null) return undefined
  const message = bodyMessage(failure)
  return keyOf(failure) ?? (message ? messageKeyOf(message) : undefined)
}

function keyOf(failure: object): MessageKey | undefined {
  const own = (failure as { key?: unknown }).key
  if (isMessageKey(own)) return own
  const data = (failure as { data?: unknown }).data
  const inData = typeof data === 'object' && data !== null ? (data as { key?: unknown }).key : undefined
  return isMessageKey(inData) ? inData : undefined
}

/** The key's text in the user's language, if this web app knows the key. */
function textOfKey(key: MessageKey | undefined): string | undefined {
  return key && i18n.exists(key, { ns: 'errors' }) ? i18n.t(key, { ns: 'errors' }) : undefined
}

/** A non-empty `message` field: of an answer's body, an error, a socket payload. */
function bodyMessage(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined
  const message = (data as { message?: unknown }).message
  return typeof message === 'string' && message.trim() ? message : undefined
}

/**
 * A server message in the user's language. Unknown texts pass through unchanged (better the server's
 * English than nothing); no message at all gives the translated 'Something went wrong'. For a text the
 * web app itself holds (one of MESSAGES); a server's answer goes through `failureText`, which reads its key.
 */
export function translateServerError(message: string | null | undefined): string {
  if (!message) return i18n.t('somethingWentWrong', { ns: 'errors' })
  return textOfKey(messageKeyOf(message)) ?? message
}

/**
 * The text for any failure, `fallback` when it says nothing useful (spec 000 §8 and 001 §8: "the server
 * message, else the error message, else a generic text"; docs/decisions/0020):
 * - an answer with a body: its key's text, else its message; a body without either gives `fallback`
 *   (the API client would otherwise say 'Something went wrong'), and so does an answer that did not fit
 *   the contract;
 * - a failure without an answer (network, a token that expired before sending) keeps its own text
 *   ('Failed to post login: …');
 * - a socket refusal or error event (`{ message, key }` or an Error with `data.key`): the key's text,
 *   else its message;
 * - anything else that is not an Error with a message: `fallback`.
 */
export function failureText(failure: unknown, fallback: string): string
export function failureText(failure: unknown, fallback?: string): string | undefined
export function failureText(failure: unknown, fallback?: string): string | undefined {
  if (failure instanceof ApiError) {
    if (failure.code === 'INVALID_RESPONSE') return fallback
    if (failure.status === 0) return translateServerError(failure.message)
    const message = bodyMessage(failure.data)
    return textOfKey(keyOf(failure)) ?? (message ? translateServerError(message) : fallback)
  }
  if (typeof failure !== 'object' || failure === null) return fallback
  const message = bodyMessage(failure)
  return textOfKey(keyOf(failure)) ?? (message ? translateServerError(message) : fallback)
}

/** The text to show for anything a call or an action threw; 'Something went wrong' when it says nothing. */
export function errorMessage(error: unknown): string {
  return failureText(error, i18n.t('somethingWentWrong', { ns: 'errors' }))
}

/** `failureText` with the caller's generic text (the name the forms have used since issue 20). */
export function failureMessage(error: unknown, fallback: string): string {
  return failureText(error, fallback)
}

export function isApiError(error: unknown, match: { status?: number; code?: string }): error is ApiError {
  return (
    error instanceof ApiError &&
    (match.status === undefined || error.status === match.status) &&
    (match.code === undefined || error.code === match.code)
  )
}
