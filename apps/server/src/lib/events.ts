import { EventEmitter } from 'node:events'
import type { TActivity } from '@circles/shared'
import type { activities } from '../db/schema'

/** An activity and the one user whose feed it is in; what the socket layer sends after commit. */
export interface Notice {
  userId: string
  activity: TActivity
}

/** An activity row as the socket layer sends it (the feed and the replay after a reconnect). */
export function toNotice(row: typeof activities.$inferSelect): Notice {
  return {
    userId: row.userId,
    activity: {
      id: row.id,
      type: row.type,
      timestamp: row.createdAt.toISOString(),
      title: row.title,
      data: row.data,
    } as TActivity,
  }
}

/**
 * Domain events, published by services after their transaction committed. Only the real-time layer
 * listens (it moves sockets between circle rooms and notifies users); services never touch sockets.
 */
export interface DomainEvents {
  'membership.started': { circleId: string; userId: string }
  'membership.ended': { circleId: string; userId: string }
  'circle.updated': { circleId: string }
  'item.created': { circleId: string; itemId: string; userId: string }
  'item.updated': { circleId: string; itemId: string }
  'item.deleted': { circleId: string; itemId: string }
  'handover.changed': {
    handoverId: string
    itemId: string
    circleId: string
    senderId: string
    receiverId: string
    status: 'PENDING' | 'CONFIRMED' | 'REJECTED' | 'CANCELLED'
  }
  /** Issue 26: a loan started, changed (date, extension, recall, return started) or ended. */
  'loan.changed': { loanId: string; itemId: string; circleId: string; lenderId: string; borrowerId: string }
  'activity.created': { notices: Notice[] }
  /** An ask to borrow changed (docs/decisions/0048): its asker's and owner's pages refresh. */
  'borrowRequest.changed': {
    borrowRequestId: string
    itemId: string
    circleId: string
    askerId: string
    ownerId: string
    status: 'WAITING' | 'OFFERED' | 'BORROWED' | 'DECLINED' | 'WITHDRAWN' | 'CLOSED'
  }
  /**
   * Issue 29: a cosignature (a member's device or an outside witness) was kept on the circle's
   * checkpoint of `size`; members' devices fetch it to compare (docs/decisions/0059).
   */
  'ledger.cosigned': { circleId: string; size: number }
  /** Every session of the user ended (a password reset): their sockets close. */
  'sessions.ended': { userId: string }
}

export interface EventBus {
  publish<K extends keyof DomainEvents>(name: K, payload: DomainEvents[K]): void
  subscribe<K extends keyof DomainEvents>(name: K, listener: (payload: DomainEvents[K]) => void): () => void
}

export function createEventBus(onListenerError: (error: unknown) => void): EventBus {
  const emitter = new EventEmitter()
  return {
    publish(name, payload) {
      emitter.emit(name, payload)
    },
    subscribe(name, listener) {
      // A failing listener must not fail the request that published the event.
      const safe = (payload: DomainEvents[typeof name]) => {
        try {
          listener(payload)
        } catch (error) {
          onListenerError(error)
        }
      }
      emitter.on(name, safe)
      return () => emitter.off(name, safe)
    },
  }
}
