import type { FastifyInstance } from 'fastify'
import { REQUEST_ID_HEADER } from '../lib/request-id'

/**
 * Every answer carries the request's id (`x-request-id`), the `reqId` of every log line written for it
 * (docs/decisions/0042). Set first thing, so error answers of later hooks (429, 401) keep it.
 */
export function registerRequestIds(app: FastifyInstance) {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id)
    done()
  })
}

/**
 * One line per API request at debug level, with the route pattern, never the raw URL (tokens live in
 * some paths). At the default level (info) the hook is not even registered: a busy server pays nothing
 * for a log nobody reads (docs/decisions/0012).
 */
export function registerRequestLog(app: FastifyInstance) {
  if (app.log.level !== 'debug' && app.log.level !== 'trace') return
  app.addHook('onResponse', async (request, reply) => {
    if (!request.url.startsWith('/api/')) return
    request.log.debug(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unknown',
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    )
  })
}
