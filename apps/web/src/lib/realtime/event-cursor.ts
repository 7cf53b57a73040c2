import type { SocketAuth, SocketEventId } from '@circles/shared'

/** How many recent event ids are remembered to skip one that arrives twice (live and replayed). */
const REMEMBERED = 1000

/**
 * Where this page is in the server's stream of real-time events (docs/decisions/0043). The server
 * numbers every event for a user's or a circle's room; after a reconnection (another instance, a
 * network gap) the handshake says the last id seen and the server sends again what was missed. An event
 * may then arrive twice: the second is skipped.
 */
export interface EventCursor {
  /** True for an id not seen before (it is remembered); false for a repeat. No id: always true. */
  fresh(id: SocketEventId | undefined): boolean
  /** The `connected` event: the server's newest id when the connection began. */
  connected(lastEventId: SocketEventId | undefined): void
  /** What the handshake adds to the token. */
  auth(): Omit<SocketAuth, 'token'>
}

export function createEventCursor(): EventCursor {
  let first: number | undefined
  let last: number | undefined
  const seen = new Set<number>()
  return {
    fresh(id) {
      if (typeof id !== 'number') return true
      if (seen.has(id)) return false
      seen.add(id)
      // A Set iterates in insertion order: the oldest id goes first.
      if (seen.size > REMEMBERED) seen.delete(seen.values().next().value as number)
      last = Math.max(last ?? 0, id)
      return true
    },
    connected(lastEventId) {
      if (typeof lastEventId !== 'number') return
      first ??= lastEventId
      last = Math.max(last ?? 0, lastEventId)
    },
    auth() {
      return last === undefined ? {} : { lastEventId: last, firstEventId: first }
    },
  }
}
