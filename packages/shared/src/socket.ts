import type { TActivity } from './contract/activities'

/**
 * Socket.io event names and payloads (spec 000 §7), one typed map for server and client. Payloads carry
 * ids and states only; the client refetches what it shows, through the API and its access checks.
 */

export interface ServerToClientEvents {
  connected: (payload: { userId: string }) => void
  new_activity: (activity: TActivity) => void
  /** `CANCELLED` when the sender withdrew it (or a party left the circle): the request is gone. */
  handover_update: (payload: {
    handoverId: string
    itemId: string
    circleId: string
    status: 'PENDING' | 'CONFIRMED' | 'REJECTED' | 'CANCELLED'
  }) => void
  circle_update: (payload: { circleId: string }) => void
  item_update: (payload: { itemId: string; circleId: string }) => void
  circle_joined: (payload: { circleId: string }) => void
  circle_left: (payload: { circleId: string }) => void
  /** `key` names `message` in MESSAGES, as in the API's error answers. */
  error: (payload: { message: string; key?: string }) => void
}

export interface ClientToServerEvents {
  join_circle: (circleId: string) => void
  leave_circle: (circleId: string) => void
}
