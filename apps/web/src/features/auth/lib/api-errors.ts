import { ApiError } from '@/lib/api-client'
import { translateServerError } from '@/lib/server-errors'

/**
 * What went wrong, in the user's language, or undefined when the failure says nothing useful (then the
 * caller shows its own fallback, e.g. 'Login failed'). A server's `message` is translated by its key;
 * a network failure keeps the spec's "Failed to post login: …" text.
 */
export function failureMessage(error: unknown): string | undefined {
  if (error instanceof ApiError) {
    if (error.code === 'NETWORK_ERROR') return error.message
    const data = error.data
    const message =
      typeof data === 'object' && data !== null ? (data as { message?: unknown }).message : undefined
    return typeof message === 'string' && message.trim() ? translateServerError(message) : undefined
  }
  if (error instanceof Error && error.message) return error.message
  return undefined
}

export function isApiError(error: unknown, match: { status?: number; code?: string }): error is ApiError {
  return (
    error instanceof ApiError &&
    (match.status === undefined || error.status === match.status) &&
    (match.code === undefined || error.code === match.code)
  )
}
