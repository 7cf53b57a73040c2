import { ZHealthResponse, ZReadyResponse } from '@circles/shared'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { Database } from '../../db/client'

/** How long readiness waits for the socket.io adapter's LISTEN connection to come back. */
const FAN_OUT_WAIT_MS = 2000

/**
 * Liveness answers while the process runs, database or not. Readiness needs `select 1` to answer within
 * 2 s and, with PostgreSQL, the socket.io adapter's LISTEN connection: without it this instance's
 * sockets would miss what happens on the others.
 */
export function healthRoutes(
  database: Database,
  fanOut: (timeoutMs: number) => Promise<boolean> | undefined,
  draining: () => boolean = () => false,
) {
  return async (plain: FastifyInstance) => {
    const app = plain.withTypeProvider<ZodTypeProvider>()
    const tags = ['health']
    app.get('/health', { schema: { tags, response: { 200: ZHealthResponse } } }, async () => ({
      status: 'ok' as const,
    }))
    app.get(
      '/ready',
      { schema: { tags, response: { 200: ZReadyResponse, 503: ZReadyResponse } } },
      async (_req, reply) => {
        // Shutting down (lib/shutdown.ts): out of the load balancer's rotation at once.
        if (draining())
          return reply.status(503).send({ status: 'not_ready', database: true, shuttingDown: true })
        const [db, realtime] = await Promise.all([database.ping(), fanOut(FAN_OUT_WAIT_MS)])
        const ok = db && realtime !== false
        return reply.status(ok ? 200 : 503).send({
          status: ok ? 'ready' : 'not_ready',
          database: db,
          ...(realtime === undefined ? {} : { realtime }),
        })
      },
    )
  }
}
