import type { ErrorCode } from '@circles/shared'
import { MESSAGES } from '@circles/shared'

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

export class AppError extends Error {
  readonly status: number

  constructor(
    readonly code: ErrorCode,
    message: string,
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

export function rateLimited(message: string, retryAfterSeconds: number) {
  return new AppError('RATE_LIMITED', message, { retryAfter: retryAfterSeconds })
}
