import { failureText } from '@/lib/server-errors'

// The one helper is lib/server-errors.ts (issue 23); these names stay for the auth forms.
export { isApiError } from '@/lib/server-errors'

/**
 * What went wrong, in the user's language, or undefined when the failure says nothing useful (then the
 * caller shows its own fallback, e.g. 'Login failed'). A server's answer is translated by its key; a
 * network failure keeps the spec's "Failed to post login: …" text.
 */
export function failureMessage(error: unknown): string | undefined {
  return failureText(error)
}
