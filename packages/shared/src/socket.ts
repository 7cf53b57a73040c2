import type { TActivity } from './contract/activities'

/**
 * Socket.io event names and payloads (spec 000 §7), one typed map for server and client. Payloads carry
 * ids and states only; the client refetches what it shows, through the API and its access checks.
 */

/**
 * Every event sent to a user's or a circle's room carries a second argument, its event id: ids only
 * grow. The client keeps the last one it saw and sends it as `lastEventId` in the handshake's auth when it
 * reconnects; the server then sends again what it missed (docs/decisions/0043). An event may arrive
 * twice (live and replayed): the client skips an id it has seen.
 */
export type SocketEventId = number

export interface SocketAuth {
  token: string
  lastEventId?: SocketEventId
  /** `lastEventId` of the first `connected`: nothing older is sent again. */
  firstEventId?: SocketEventId
  /**
   * A first connection's (no `lastEventId`): the server's time (ISO 8601) before the page read the data it
   * shows. The server sends again the events since then and says so in `connected` (`replayedSince`), so
   * the page need not fetch everything again (docs/decisions/0067).
   */
  since?: string
}

export interface ServerToClientEvents {
  /** After any replay: `lastEventId` is where the client's count goes on from (the newest id then). */
  connected: (payload: { userId: string; lastEventId?: SocketEventId; replayedSince?: boolean }) => void
  new_activity: (activity: TActivity, eventId?: SocketEventId) => void
  /** `CANCELLED` when the sender withdrew it (or a party left the circle): the request is gone. */
  handover_update: (
    payload: {
      handoverId: string
      itemId: string
      circleId: string
      status: 'PENDING' | 'CONFIRMED' | 'REJECTED' | 'CANCELLED'
    },
    eventId?: SocketEventId,
  ) => void
  /**
   * An ask to borrow changed (issue 26, docs/decisions/0048): sent to its asker and the item's owner;
   * the item's circle hears `item_update` (its queue length changed).
   */
  borrow_request_update: (
    payload: {
      borrowRequestId: string
      itemId: string
      circleId: string
      status: 'WAITING' | 'OFFERED' | 'BORROWED' | 'DECLINED' | 'WITHDRAWN' | 'CLOSED'
    },
    eventId?: SocketEventId,
  ) => void
  circle_update: (payload: { circleId: string }, eventId?: SocketEventId) => void
  /**
   * Issue 29 (docs/decisions/0059): a new cosignature on the circle's checkpoint of `size` (a member's
   * device or an outside witness). The checkpoint with its cosignatures is read through the API (GET
   * …/checkpoint for the newest, a proof's `checkpoint` for an older size).
   */
  ledger_cosigned: (payload: { circleId: string; size: number }, eventId?: SocketEventId) => void
  /** Issue 26: to the lender and the borrower: the loan changed (fetch GET /api/loans/:id again). */
  loan_update: (
    payload: { loanId: string; itemId: string; circleId: string },
    eventId?: SocketEventId,
  ) => void
  item_update: (payload: { itemId: string; circleId: string }, eventId?: SocketEventId) => void
  circle_joined: (payload: { circleId: string }, eventId?: SocketEventId) => void
  circle_left: (payload: { circleId: string }, eventId?: SocketEventId) => void
  /** `key` names `message` in MESSAGES, as in the API's error answers. */
  error: (payload: { message: string; key?: string }) => void
  /**
   * This instance is shutting down (or lost its fan-out for a while): the server disconnects the socket
   * next, and the client reconnects after a random wait of up to `withinMs` (to another instance).
   */
  reconnect_soon: (payload: { withinMs: number }) => void
  /** Events were missed that can no longer be sent again: the client fetches everything again. */
  resync: () => void
}

export interface ClientToServerEvents {
  join_circle: (circleId: string) => void
  leave_circle: (circleId: string) => void
}
