import { ZHealthResponse, ZReadyResponse } from '@circles/shared'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { Database } from '../../db/client'

/** Liveness answers while the process runs; readiness also needs the database. */
export function healthRoutes(database: Database) {
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
        const ok = await database.ping()
        return reply.status(ok ? 200 : 503).send({ status: ok ? 'ready' : 'not_ready', database: ok })
      },
    )
  }
}
