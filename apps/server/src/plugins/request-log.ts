import type { FastifyInstance } from 'fastify'

/** One line per API request with the route pattern, never the raw URL (tokens live in some paths). */
export function registerRequestLog(app: FastifyInstance) {
  app.addHook('onResponse', async (request, reply) => {
    if (!request.url.startsWith('/api/')) return
    request.log.info(
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
