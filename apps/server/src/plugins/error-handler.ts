import { MESSAGES } from '@circles/shared'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyServerOptions } from 'fastify'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
import { isDatabaseUnavailable, outageSummary } from '../lib/database-unavailable'
import { AppError, errorBody } from '../lib/errors'
import type { Metrics } from '../lib/metrics'
import { REQUEST_ID_HEADER } from '../lib/request-id'

/** Seconds a client should wait before trying again while the database is away. */
const OUTAGE_RETRY_AFTER_S = 5

/** Fastify's own client errors, by code, with what we tell the client. */
const FASTIFY_CLIENT_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'INVALID_JSON', message: MESSAGES.invalidJson },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'INVALID_JSON', message: MESSAGES.invalidJson },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: MESSAGES.payloadTooLarge },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: MESSAGES.unsupportedMediaType,
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'BAD_REQUEST', message: MESSAGES.invalidJson },
}

/**
 * The errors Fastify answers before routing: a path whose percent-encoding is not UTF-8 (`%ED%A0%80`, a
 * lone surrogate) and a path parameter longer than the router takes. Without this, Fastify answers them
 * itself in its own shape, echoing the path.
 */
export const frameworkErrors: NonNullable<FastifyServerOptions['frameworkErrors']> = (
  _error,
  request,
  reply: FastifyReply,
) => {
  // Answered before any hook runs: the request id is set here (docs/decisions/0042).
  void reply
    .header(REQUEST_ID_HEADER, request.id)
    .status(400)
    .send(errorBody('BAD_REQUEST', MESSAGES.invalidUrl))
}

/**
 * Every non-OK answer is `{ message, code, key }` (`errorBody`). Client mistakes get the spec's message and a 4xx; a 5xx
 * never shows its internals. While the database is unreachable every call that needs it answers 503.
 */
export function registerErrorHandler(app: FastifyInstance, metrics: Pick<Metrics, 'databaseError'>) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.status === 429 && typeof error.details.retryAfter === 'number') {
        reply.header('retry-after', String(error.details.retryAfter))
      }
      return reply.status(error.status).send(errorBody(error.code, error.message, error.details))
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0]
      // A path id that cannot name anything (ZCircleIdParams and the like say 'Not found') is a 404.
      if (first?.message === MESSAGES.notFound) {
        return reply.status(404).send(errorBody('NOT_FOUND', MESSAGES.notFound))
      }
      return reply.status(400).send(errorBody('VALIDATION_ERROR', first?.message ?? MESSAGES.required))
    }
    const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined
    if (known) return reply.status(known.status).send(errorBody(known.code, known.message))
    if (error instanceof SyntaxError) {
      return reply.status(400).send(errorBody('INVALID_JSON', MESSAGES.invalidJson))
    }
    if (error.statusCode === 429) {
      return reply.status(429).send(errorBody('RATE_LIMITED', MESSAGES.tooManyRequests))
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.status(error.statusCode).send(errorBody('BAD_REQUEST', MESSAGES.somethingWentWrong))
    }
    // Counted as an outage or a failed query when it is one (lib/metrics.ts).
    metrics.databaseError(error)
    // The database is restarting or unreachable: a passing state, not a bug. The answer says so and
    // when to try again; the log names the cause without the query or its values.
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ database: outageSummary(error) }, 'request failed: database unavailable')
      reply.header('retry-after', String(OUTAGE_RETRY_AFTER_S))
      return reply.status(503).send(errorBody('SERVICE_UNAVAILABLE', MESSAGES.serviceUnavailable))
    }
    // The error without its data (lib/logging.ts), and the route pattern, never the URL.
    request.log.error(
      { err: error, method: request.method, route: request.routeOptions.url ?? 'unknown' },
      'request failed',
    )
    return reply.status(500).send(errorBody('INTERNAL_ERROR', MESSAGES.somethingWentWrong))
  })
}
