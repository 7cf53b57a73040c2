import { MESSAGES } from '@circles/shared'
import { ApiError } from '@/lib/api-client'
import { translateServerError } from '@/lib/server-errors'

/** True when the circle does not exist for this user (unknown id, or not a member: the API says 404). */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404
}

/**
 * What a failed circle action says: the server's message in the user's language, else the spec's
 * generic 'An error occurred' (spec 001 §8). A network failure or a bare 5xx has nothing useful to say.
 */
export function actionErrorText(error: unknown): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.message) {
    return translateServerError(error.message)
  }
  return translateServerError(MESSAGES.anErrorOccurred)
}
