/** Socket.io event names and payloads, one typed map for server and client (only `notifications` emits). */
export interface ActivityEvent {
  id: string
  type: 'PENDING_HANDOVER' | 'CONFIRMED_HANDOVER' | 'NEW_ITEM' | 'AUTO_TRANSFER' | 'CIRCLE_INVITATION'
  timestamp: string
  title: string
  data: Record<string, unknown>
}

export interface ServerToClientEvents {
  connected: (payload: { userId: string }) => void
  new_activity: (activity: ActivityEvent) => void
  handover_update: (payload: { handoverId: string; itemId: string; status: string }) => void
  circle_update: (payload: { circleId: string }) => void
  item_update: (payload: { itemId: string; circleId: string }) => void
  circle_joined: (payload: { circleId: string }) => void
  circle_left: (payload: { circleId: string }) => void
  error: (payload: { message: string }) => void
}

export interface ClientToServerEvents {
  join_circle: (circleId: string) => void
  leave_circle: (circleId: string) => void
}
