import { ApiError } from '@/lib/api-client'

/** Why a former member cannot open a circle's pages, as the server says it (403 NO_LONGER_MEMBER). */
export interface Departure {
  reason: 'LEFT' | 'REMOVED'
  circle: { id: string; name: string }
}

/**
 * The departure an answer names, when the caller left the circle or its admin removed them
 * (docs/decisions/0027); undefined for any other failure.
 */
export function departureOf(error: unknown): Departure | undefined {
  if (!(error instanceof ApiError) || error.code !== 'NO_LONGER_MEMBER') return undefined
  const data = error.data as Partial<Departure> | undefined
  const circle = data?.circle
  if (!circle || typeof circle.id !== 'string' || typeof circle.name !== 'string') return undefined
  return { reason: data.reason === 'LEFT' ? 'LEFT' : 'REMOVED', circle: { id: circle.id, name: circle.name } }
}
