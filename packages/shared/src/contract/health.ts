import { z } from 'zod'

export const ZHealthResponse = z.object({ status: z.literal('ok') })
export const ZReadyResponse = z.object({ status: z.enum(['ready', 'not_ready']), database: z.boolean() })
