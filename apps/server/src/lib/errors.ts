import type { ErrorCode, MessageKey, MessageText } from '@circles/shared'
import { MESSAGES, messageKeyOf } from '@circles/shared'

/** One table from code to HTTP status; services speak in codes, never in statuses. */
export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  VALIDATION_ERROR: 400,
  BAD_REQUEST: 400,
  INVALID_JSON: 400,
  INVALID_INVITATION: 400,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  USER_EXISTS: 409,
  INVALID_CREDENTIALS: 401,
  EMAIL_NOT_VERIFIED: 401,
  UNAUTHORIZED: 401,
  TOKEN_EXPIRED: 401,
  INVALID_TOKEN: 401,
  FORBIDDEN: 403,
  ALREADY_MEMBER: 409,
  INVITATION_ACCEPTED: 409,
  INVITATION_EXPIRED: 410,
  PLAN_LIMIT_REACHED: 403,
  CONFLICT: 409,
  NOT_FOUND: 404,
  NO_PASSKEYS: 404,
  NO_LONGER_MEMBER: 403,
  REQUEST_TIMEOUT: 408,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
}

/**
 * The body of every error answer, HTTP or socket (issue 23, docs/decisions/0032-error-message-keys.md):
 * the message, our code, and `key`, the message's name in MESSAGES, looked up here and nowhere else, so
 * clients translate by a name that survives a reworded message. A text without a name (zod's own words
 * for a value outside a schema) is keyed `invalidInput`.
 */
export function errorBody(
  code: string,
  message: string,
  details: Record<string, unknown> = {},
): { message: string; code: string; key: MessageKey } & Record<string, unknown> {
  return { message, code, ...details, key: messageKeyOf(message) ?? 'invalidInput' }
}

export class AppError extends Error {
  readonly status: number

  constructor(
    readonly code: ErrorCode,
    /** One of the MESSAGES, word for word, so the answer's `key` names it. */
    message: MessageText,
    /** Extra fields the client reads beside `message`, e.g. `emailVerified` or `retryAfter`. */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message)
    this.status = STATUS_BY_CODE[code]
  }
}

export const forbidden = () => new AppError('FORBIDDEN', MESSAGES.forbidden)
export const notFound = () => new AppError('NOT_FOUND', MESSAGES.notFound)
export const unauthorized = () => new AppError('UNAUTHORIZED', MESSAGES.unauthorized)

export function rateLimited(message: MessageText, retryAfterSeconds: number) {
  return new AppError('RATE_LIMITED', message, { retryAfter: retryAfterSeconds })
}
