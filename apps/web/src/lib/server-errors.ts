import { MESSAGES, type MessageKey } from '@circles/shared'
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
