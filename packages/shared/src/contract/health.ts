import { z } from 'zod/mini'

export const ZHealthResponse = z.object({ status: z.literal('ok') })
export const ZReadyResponse = z.object({
  status: z.enum(['ready', 'not_ready']),
  database: z.boolean(),
  /** With PostgreSQL: this instance listens for the other instances' real-time events. */
  realtime: z.optional(z.boolean()),
  /** The instance received SIGTERM and is draining (docs/operations.md, Rolling restarts). */
  shuttingDown: z.optional(z.literal(true)),
})
