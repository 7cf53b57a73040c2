import type { ClientToServerEvents, MessageText, ServerToClientEvents, TUser } from '@circles/shared'
import { MESSAGES, SOCKET } from '@circles/shared'
import { createAdapter } from '@socket.io/postgres-adapter'
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import type pg from 'pg'
import { Server } from 'socket.io'
import { isDatabaseUnavailable, outageSummary } from '../lib/database-unavailable'
import { errorBody } from '../lib/errors'
import type { EventBus } from '../lib/events'
import type { EventLog, LoggedEvent, RoomEvent } from '../lib/socket-replay'

export interface SocketData {
  userId: string
  /** Filled by the handshake: the rooms the socket enters and when its session ends. */
  circleIds: string[]
  expiresInMs: number
  /** The last event id the client saw, when it reconnects (docs/decisions/0043). */
  lastEventId?: number
  /** The head when the client's first connection began; events before it are never sent again. */
  firstEventId?: number
  /** A first connection's: the server's time before its page read its data (docs/decisions/0067). */
  since?: Date
  /** The handshake's place in the per-account count, until the socket is in its user's room. */
  admitted?: { release(): void }
}

/**
 * Room events as they travel between instances: `[id, room, event, payload]`, the id `null` when the
 * event log could not be written.
 */
export type WireEvent = [number | null, string, RoomEvent['event'], unknown]

/** What the instances send each other through the adapter (besides socket.io's own messages). */
export interface InterServerEvents {
  /** Room events published on another instance, in order, for this instance's sockets. */
  room_events: (events: WireEvent[]) => void
}

export type SocketServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>

export interface SocketDeps {
  authenticate(token: string): Promise<TUser>
  isMember(userId: string, circleId: string): Promise<boolean>
  circleIdsOf(userId: string): Promise<string[]>
  events: EventBus
  /** Every room event is written here first, so a client that reconnects gets what it missed. */
  eventLog: EventLog
  /** With PostgreSQL: events fan out to the sockets of every instance through LISTEN/NOTIFY. */
  pool?: pg.Pool
  /** Open sockets one account may hold, counted across instances (docs/decisions/0026). */
  maxSocketsPerAccount: number
  log: FastifyBaseLogger
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** How long after `reconnect_soon` clients spread their reconnections (a random wait up to this). */
export const RECONNECT_SOON_MS = 1000
/** How long shutdown waits for the sockets' last packets (`reconnect_soon`, the disconnect) to leave. */
const ENGINE_DRAIN_MS = 2000
/** How often rows older than the replay window are deleted. */
const PRUNE_EVERY_MS = 60_000
/** Fan-out came back: events written since the outage began (with this margin for clocks) are sent again. */
const FAN_OUT_MARGIN_MS = 5000
/** setTimeout's ceiling; a remembered session (30 days) is longer. */
const MAX_TIMER_MS = 2 ** 31 - 1
/**
 * The most bytes of room events one adapter message carries. PostgreSQL refuses a NOTIFY payload over
 * 8000 bytes, and the adapter sends a bigger message through its attachments table instead (an INSERT,
 * then each other instance SELECTs it, out of order with the messages around it). The message's own
 * envelope (uid, type, event name) fits in what is left.
 */
export const ROOM_EVENTS_MESSAGE_BYTES = 7500

/**
 * Room events cut into messages of at most `maxBytes` of JSON each, in order. An event bigger than that
 * on its own travels alone (through the adapter's attachments table).
 */
export function roomEventMessages(
  events: (LoggedEvent | RoomEvent)[],
  maxBytes = ROOM_EVENTS_MESSAGE_BYTES,
): WireEvent[][] {
  const messages: WireEvent[][] = []
  let current: WireEvent[] = []
  // The brackets of the array.
  let size = 2
  for (const event of events) {
    const wire: WireEvent = ['id' in event ? event.id : null, event.room, event.event, event.payload]
    // With the comma before it, when it is not the first.
    const bytes = Buffer.byteLength(JSON.stringify(wire)) + (current.length > 0 ? 1 : 0)
    if (current.length > 0 && size + bytes > maxBytes) {
      messages.push(current)
      current = []
      size = 2 + bytes - 1
    } else size += bytes
    current.push(wire)
  }
  if (current.length > 0) messages.push(current)
  return messages
}

export const userRoom = (userId: string) => `user:${userId}`
export const circleRoom = (circleId: string) => `circle:${circleId}`

/**
 * The pool as the PostgreSQL adapter sees it.
 *
 * - The adapter takes a client for LISTEN in the background and releases it on close, but a close that
 *   comes before that client arrived would leave it checked out, and the pool's end would wait for it
 *   forever. After `close()`, a client that arrives goes back at once and the adapter waits for nothing.
 * - When the database restarts, the LISTEN connection ends. The adapter then asks for a new client
 *   every 1 to 3 s until the database answers and LISTENs again, but never gives the dead one back: the
 *   pool would count it as busy forever, one slot lost per restart. It goes back here, as broken, so the
 *   pool discards it. (The 'error' it emits is caught by the pool's listener, db/client.ts.)
 * - `listening()` says whether a live connection has LISTENed: without it this instance misses what
 *   the others publish, so readiness reports it.
 */
function adapterPool(pool: pg.Pool, onChange: (listening: boolean, error?: unknown) => void) {
  let closed = false
  let current: pg.PoolClient | undefined
  let listening = false
  const waiters = new Set<() => void>()
  let notifying: Promise<unknown> = Promise.resolve()
  const setListening = () => {
    listening = true
    for (const wake of waiters) wake()
    onChange(true)
  }
  const never = () => new Promise<never>(() => {})
  const wrapped = {
    async connect() {
      if (closed) return never()
      const client = await pool.connect()
      if (closed) {
        client.release()
        return never()
      }
      current = client
      let released = false
      const lost = (error?: unknown) => {
        if (released) return
        released = true
        if (current === client) {
          current = undefined
          if (listening) {
            listening = false
            onChange(false, error)
          }
        }
        client.release(error instanceof Error ? error : new Error('LISTEN connection ended'))
      }
      client.on('error', lost)
      // Before the adapter's own 'end' listener, which schedules the reconnection.
      client.on('end', () => lost())
      // The adapter's close() gives the client back itself and drops our 'end' listener first.
      const release = client.release.bind(client)
      client.release = (error?: Error | boolean) => {
        released = true
        if (current === client) current = undefined
        listening = false
        return release(error)
      }
      // The adapter LISTENs right after connecting; its answer makes this instance a listener again.
      const query = client.query.bind(client) as (text: string) => Promise<unknown>
      client.query = ((text: unknown, ...rest: unknown[]) => {
        const result = (query as (...args: unknown[]) => unknown)(text, ...rest)
        if (typeof text === 'string' && text.startsWith('LISTEN ') && result instanceof Promise) {
          result.then(
            () => {
              if (current === client && !released && !listening) setListening()
            },
            () => {},
          )
        }
        return result
      }) as typeof client.query
      return client
    },
    // One NOTIFY after the other: each instance then hears this instance's messages in the order they
    // were published (queries on several connections at once may commit in any order).
    query: (...args: Parameters<pg.Pool['query']>) => {
      if (typeof args[0] !== 'string' || !args[0].startsWith('SELECT pg_notify')) return pool.query(...args)
      const result = notifying.then(() => pool.query(...args))
      notifying = result.catch(() => {})
      return result
    },
  }
  return {
    pool: wrapped as unknown as pg.Pool,
    /** Resolves true once a connection is LISTENing, false if none is within `timeoutMs`. */
    listening(timeoutMs: number): Promise<boolean> {
      if (listening || closed) return Promise.resolve(listening)
      return new Promise<boolean>((resolve) => {
        const wake = () => {
          clearTimeout(timer)
          waiters.delete(wake)
          resolve(true)
        }
        const timer = setTimeout(() => {
          waiters.delete(wake)
          resolve(false)
        }, timeoutMs)
        waiters.add(wake)
      })
    },
    close() {
      closed = true
    },
  }
}

const fanOutState = new WeakMap<SocketServer, (timeoutMs: number) => Promise<boolean>>()

/**
 * Whether this instance receives what the others publish: its LISTEN connection is up, or comes up
 * within `timeoutMs`. `undefined` without PostgreSQL (one instance, nothing to receive).
 */
export function fanOutListening(io: SocketServer, timeoutMs: number): Promise<boolean> | undefined {
  return fanOutState.get(io)?.(timeoutMs)
}

const isEventId = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0

/** A moment at most a minute ahead of this server's clock (the client's clock plays no part in it). */
function pastTime(value: unknown): Date | undefined {
  if (typeof value !== 'string' || value.length > 40) return undefined
  const at = Date.parse(value)
  return Number.isFinite(at) && at <= Date.now() + 60_000 ? new Date(at) : undefined
}

/** Milliseconds until a verified JWT's `exp`. */
function msUntilExpiry(token: string): number {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
    exp?: number
  }
  return typeof payload.exp === 'number' ? payload.exp * 1000 - Date.now() : MAX_TIMER_MS
}

/** The refusal a client sees as its `connect_error`: the message, and `data` saying not to retry. */
function tooManySockets() {
  return socketRefusal('TOO_MANY_SOCKETS', MESSAGES.tooManySockets, { retry: false })
}

/**
 * A handshake refused: socket.io hands the client the message and `data`, which carries the code and the
 * key as an API error answer does (`errorBody`).
 */
function socketRefusal(code: string, message: MessageText, details: Record<string, unknown> = {}) {
  const error = new Error(message) as Error & { data: unknown }
  const { message: _message, ...data } = errorBody(code, message, details)
  error.data = data
  return error
}

/** A token refused, or the database away (the client retries then instead of checking its token). */
const handshakeFailure = (error: unknown) =>
  isDatabaseUnavailable(error)
    ? socketRefusal('SERVICE_UNAVAILABLE', MESSAGES.realtimeServiceUnavailable)
    : socketRefusal('UNAUTHORIZED', MESSAGES.unauthorized)

/**
 * At most `maxSocketsPerAccount` open sockets per account. The count is the user's room across every
 * instance (`fetchSockets` asks the others through the PostgreSQL adapter) plus this instance's
 * handshakes still under way, so a burst of parallel connections cannot all pass one count. If another
 * instance does not answer in time, this instance counts its own sockets only.
 */
function socketCeiling(io: SocketServer, deps: SocketDeps) {
  const pending = new Map<string, number>()
  const change = (userId: string, by: number) => {
    const next = (pending.get(userId) ?? 0) + by
    if (next > 0) pending.set(userId, next)
    else pending.delete(userId)
  }
  return {
    /** Resolves with a handle to release once the socket is in its room, or `undefined` when full. */
    async admit(userId: string): Promise<{ release(): void } | undefined> {
      change(userId, 1)
      let open: number
      try {
        open = (await io.in(userRoom(userId)).fetchSockets()).length
      } catch (error) {
        deps.log.warn({ err: error }, 'counting sockets across instances failed; counting this one only')
        open = (await io.local.in(userRoom(userId)).fetchSockets()).length
      }
      // This handshake is among the pending ones.
      if (open + (pending.get(userId) ?? 0) > deps.maxSocketsPerAccount) {
        change(userId, -1)
        return undefined
      }
      let released = false
      const release = () => {
        if (released) return
        released = true
        clearTimeout(expiry)
        change(userId, -1)
      }
      // A handshake the client abandoned never reaches 'connection': its place frees itself.
      const expiry = setTimeout(release, SOCKET.timeoutMs)
      expiry.unref()
      return { release }
    },
  }
}

/**
 * socket.io on the same server and port (docs/decisions/0017). The handshake carries the bearer token;
 * every socket joins its user's room and the rooms of the user's circles, and leaves a circle's room
 * the moment the membership ends. Domain events, published after their transaction committed, become
 * socket events here, each sent only to the people allowed to see it. Every operation below goes
 * through the adapter, so with PostgreSQL it reaches the sockets of every instance: room events as a
 * batch (`room_events`, a few NOTIFYs for a scan's thousands of notices, docs/decisions/0049), the
 * rest as socket.io's own broadcasts.
 */
export function attachSocketServer(app: FastifyInstance, deps: SocketDeps): SocketServer {
  const io: SocketServer = new Server(app.server, {
    path: SOCKET.path,
    serveClient: false,
    connectTimeout: SOCKET.timeoutMs,
  })
  // While the database is away every heartbeat and broadcast fails: one line when the connection is
  // lost and one when it is back, not a line per attempt.
  let outage = false
  let outageSince: Date | undefined
  const fanOut = deps.pool
    ? adapterPool(deps.pool, (listening, error) => {
        if (listening) {
          if (outage) app.log.info('socket.io adapter listening again; cross-instance events resume')
          outage = false
          // What the other instances published meanwhile did not reach this instance's sockets.
          if (outageSince) void replayLocally(outageSince)
          outageSince = undefined
        } else {
          outage = true
          outageSince ??= new Date(Date.now() - FAN_OUT_MARGIN_MS)
          app.log.warn(
            { database: outageSummary(error) },
            'socket.io adapter lost its database connection; reconnecting',
          )
        }
      })
    : undefined
  if (fanOut) {
    io.adapter(
      createAdapter(fanOut.pool, {
        errorHandler: (error) => {
          if (!isDatabaseUnavailable(error)) app.log.warn({ err: error }, 'socket.io adapter error')
          else if (!outage) {
            outage = true
            app.log.warn({ database: outageSummary(error) }, 'socket.io adapter: database unavailable')
          }
        },
      }),
    )
  }
  if (fanOut) fanOutState.set(io, fanOut.listening)

  const emitLogged = (to: { emit: SocketServer['emit'] }, event: LoggedEvent | RoomEvent) =>
    (to.emit as (name: string, ...args: unknown[]) => boolean)(
      event.event,
      event.payload,
      'id' in event ? event.id : undefined,
    )

  /** Sends the events written since `since` to this instance's sockets in their rooms. */
  async function replayLocally(since: Date) {
    try {
      const rooms = [...io.of('/').adapter.rooms.keys()].filter(
        (room) => room.startsWith('user:') || room.startsWith('circle:'),
      )
      if (rooms.length === 0) return
      for (const event of await deps.eventLog.since(since, rooms)) emitLogged(io.local.to(event.room), event)
    } catch (error) {
      app.log.warn({ err: error }, 'sending the events missed during the fan-out outage failed')
    }
  }

  /**
   * Room events, written to the event log and then sent with their ids. The writes run side by side;
   * the sending keeps the order of publication. If the log cannot be written (the database is away),
   * the event is still sent live, without an id. This instance's sockets get them at once; the other
   * instances get a publication's events in messages of up to ROOM_EVENTS_MESSAGE_BYTES, each of
   * which they hand to their own sockets in the events' rooms.
   */
  let sending: Promise<void> = Promise.resolve()
  const send = (events: RoomEvent[]) => {
    const written = deps.eventLog.record(events).catch((error: unknown): (LoggedEvent | RoomEvent)[] => {
      if (!isDatabaseUnavailable(error)) app.log.warn({ err: error }, 'writing socket events failed')
      return events
    })
    sending = sending
      .then(() => written)
      .then((logged) => {
        for (const event of logged) emitLogged(io.local.to(event.room), event)
        // The other instances get the batch in a few messages, not a message per event (a scan's
        // reminders are thousands of events), and send each event to their own sockets in its room.
        if (fanOut) for (const message of roomEventMessages(logged)) io.serverSideEmit('room_events', message)
      })
  }
  if (fanOut) {
    io.on('room_events', (events) => {
      for (const [id, room, event, payload] of events) {
        emitLogged(io.local.to(room), id === null ? { room, event, payload } : { id, room, event, payload })
      }
    })
  }
  const pruning = setInterval(() => {
    deps.eventLog.prune().catch((error: unknown) => {
      if (!isDatabaseUnavailable(error)) app.log.warn({ err: error }, 'pruning socket events failed')
    })
  }, PRUNE_EVERY_MS)
  pruning.unref()

  const sockets = socketCeiling(io, deps)
  io.use(async (socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown }).token
    let userId: string
    try {
      if (typeof token !== 'string') throw new Error('missing token')
      userId = (await deps.authenticate(token)).id
    } catch (error) {
      // A database restart is not a refused session: the client retries instead of checking its token.
      return next(handshakeFailure(error))
    }
    const admitted = await sockets.admit(userId)
    if (!admitted) return next(tooManySockets())
    // Counted as pending until the socket is in its user's room, where the next count sees it.
    socket.data.admitted = admitted
    try {
      socket.data.userId = userId
      socket.data.circleIds = await deps.circleIdsOf(userId)
      socket.data.expiresInMs = msUntilExpiry(token)
      const { lastEventId, firstEventId, since } = socket.handshake.auth as Record<string, unknown>
      if (isEventId(lastEventId)) {
        socket.data.lastEventId = lastEventId
        if (isEventId(firstEventId)) socket.data.firstEventId = firstEventId
      } else socket.data.since = pastTime(since)
    } catch (error) {
      admitted.release()
      return next(handshakeFailure(error))
    }
    next()
  })
  io.on('connection', (socket) => {
    const { userId, circleIds, expiresInMs, lastEventId, firstEventId, since } = socket.data
    const rooms = [userRoom(userId), ...circleIds.map(circleRoom)]
    void socket.join(rooms)
    socket.data.admitted?.release()
    // An expired session's socket closes when the session does.
    const expiry = setTimeout(() => socket.disconnect(true), Math.min(expiresInMs, MAX_TIMER_MS))
    socket.on('disconnect', () => clearTimeout(expiry))
    socket.on('join_circle', async (circleId) => {
      try {
        if (typeof circleId === 'string' && UUID.test(circleId) && (await deps.isMember(userId, circleId))) {
          await socket.join(circleRoom(circleId))
          return
        }
      } catch (error) {
        app.log.warn({ err: error }, 'join_circle failed')
      }
      socket.emit('error', errorBody('FORBIDDEN', MESSAGES.forbidden))
    })
    socket.on('leave_circle', (circleId) => {
      if (typeof circleId === 'string') void socket.leave(circleRoom(circleId))
    })
    void (async () => {
      // In its rooms already, so what follows comes live; what came before is sent again from the log,
      // for the rooms it is allowed in now (checked by the handshake as a join is). Then `connected`.
      // A first connection that says when its page read its data gets the events since then instead.
      let head: number | undefined
      let replayedSince = false
      try {
        if (lastEventId === undefined && since === undefined) head = await deps.eventLog.head()
        else {
          const replay =
            lastEventId === undefined
              ? await deps.eventLog.replaySince(since!, rooms)
              : await deps.eventLog.replay(lastEventId, rooms, firstEventId)
          if (replay.kind === 'resync') socket.emit('resync')
          else for (const event of replay.events) emitLogged(socket, event)
          head = replay.head
          replayedSince = lastEventId === undefined && replay.kind === 'events'
        }
      } catch (error) {
        if (!isDatabaseUnavailable(error)) app.log.warn({ err: error }, 'replaying socket events failed')
        if (lastEventId !== undefined) socket.emit('resync')
      }
      if (socket.connected)
        socket.emit(
          'connected',
          head === undefined
            ? { userId }
            : { userId, lastEventId: head, ...(replayedSince && { replayedSince: true }) },
        )
    })()
  })

  const { subscribe } = deps.events
  const unsubscribe = [
    subscribe('membership.started', ({ circleId, userId }) => {
      io.in(userRoom(userId)).socketsJoin(circleRoom(circleId))
      send([{ room: userRoom(userId), event: 'circle_joined', payload: { circleId } }])
    }),
    subscribe('membership.ended', ({ circleId, userId }) => {
      io.in(userRoom(userId)).socketsLeave(circleRoom(circleId))
      send([{ room: userRoom(userId), event: 'circle_left', payload: { circleId } }])
    }),
    subscribe('circle.updated', ({ circleId }) => {
      send([{ room: circleRoom(circleId), event: 'circle_update', payload: { circleId } }])
    }),
    subscribe('ledger.cosigned', ({ circleId, size }) => {
      send([{ room: circleRoom(circleId), event: 'ledger_cosigned', payload: { circleId, size } }])
    }),
    ...(['item.created', 'item.updated', 'item.deleted'] as const).map((name) =>
      subscribe(name, ({ circleId, itemId }) => {
        send([{ room: circleRoom(circleId), event: 'item_update', payload: { itemId, circleId } }])
      }),
    ),
    // The parties only; other members learn of the item's change through item_update.
    subscribe('handover.changed', ({ handoverId, itemId, circleId, status, senderId, receiverId }) => {
      const payload = { handoverId, itemId, circleId, status }
      send(
        [...new Set([senderId, receiverId])].map((id) => ({
          room: userRoom(id),
          event: 'handover_update' as const,
          payload,
        })),
      )
    }),
    subscribe('borrowRequest.changed', ({ borrowRequestId, itemId, circleId, status, askerId, ownerId }) => {
      const payload = { borrowRequestId, itemId, circleId, status }
      send(
        [...new Set([askerId, ownerId])].map((id) => ({
          room: userRoom(id),
          event: 'borrow_request_update' as const,
          payload,
        })),
      )
    }),
    // Issue 26: the loan's two parties (the circle hears of the item through item_update).
    subscribe('loan.changed', ({ loanId, itemId, circleId, lenderId, borrowerId }) => {
      const payload = { loanId, itemId, circleId }
      send(
        [...new Set([lenderId, borrowerId])].map((id) => ({
          room: userRoom(id),
          event: 'loan_update' as const,
          payload,
        })),
      )
    }),
    subscribe('activity.created', ({ notices }) => {
      send(
        notices.map(({ userId, activity }) => ({
          room: userRoom(userId),
          event: 'new_activity' as const,
          payload: activity,
        })),
      )
    }),
    subscribe('sessions.ended', ({ userId }) => {
      io.in(userRoom(userId)).disconnectSockets(true)
    }),
  ]

  // Before Fastify closes the HTTP server: open websockets would otherwise keep it waiting. The sockets
  // are told to reconnect (to another instance, through the load balancer) and what they miss meanwhile
  // is in the event log (lib/shutdown.ts).
  app.addHook('preClose', async () => {
    io.local.emit('reconnect_soon', { withinMs: RECONNECT_SOON_MS })
    io.local.disconnectSockets(true)
    // Closing the engine at once would discard what is still buffered (a polling client's next answer):
    // the clients' connections close by themselves once it is sent.
    const deadline = Date.now() + ENGINE_DRAIN_MS
    while (io.engine.clientsCount > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    io.engine.close()
  })
  // After the requests in flight finished: the events they published still reach the other instances.
  app.addHook('onClose', async () => {
    for (const stop of unsubscribe) stop()
    clearInterval(pruning)
    await sending
    fanOut?.close()
    await io.of('/').adapter.close()
  })
  return io
}
