/** Error codes the API answers with in `{ message, code }`. The server maps each to one HTTP status. */
export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'BAD_REQUEST',
  'INVALID_JSON',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'USER_EXISTS',
  'INVALID_INVITATION',
  'INVALID_CREDENTIALS',
  'EMAIL_NOT_VERIFIED',
  'UNAUTHORIZED',
  'TOKEN_EXPIRED',
  'INVALID_TOKEN',
  'FORBIDDEN',
  'ALREADY_MEMBER',
  'INVITATION_ACCEPTED',
  'INVITATION_EXPIRED',
  'PLAN_LIMIT_REACHED',
  'CONFLICT',
  'NOT_FOUND',
  'NO_PASSKEYS',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
] as const

export type ErrorCode = (typeof ERROR_CODES)[number]
