import type { ClientToServerEvents, ServerToClientEvents, TUser } from '@circles/shared'
import { SOCKET } from '@circles/shared'
import { createAdapter } from '@socket.io/postgres-adapter'
import type { FastifyInstance } from 'fastify'
import type pg from 'pg'
import { Server } from 'socket.io'
import type { EventBus } from '../lib/events'

export interface SocketData {
  userId: string
  /** Filled by the handshake: the rooms the socket enters and when its session ends. */
  circleIds: string[]
  expiresInMs: number
}

export type SocketServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  SocketData
>

export interface SocketDeps {
  authenticate(token: string): Promise<TUser>
  isMember(userId: string, circleId: string): Promise<boolean>
  circleIdsOf(userId: string): Promise<string[]>
  events: EventBus
  /** With PostgreSQL: events fan out to the sockets of every instance through LISTEN/NOTIFY. */
  pool?: pg.Pool
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** setTimeout's ceiling; a remembered session (30 days) is longer. */
const MAX_TIMER_MS = 2 ** 31 - 1

export const userRoom = (userId: string) => `user:${userId}`
export const circleRoom = (circleId: string) => `circle:${circleId}`

/**
 * The pool as the PostgreSQL adapter sees it. The adapter takes a client for LISTEN in the background
 * and releases it on close, but a close that comes before that client arrived would leave it checked
 * out, and the pool's end would wait for it forever. After `close()`, a client that arrives goes back
 * at once and the adapter waits for nothing.
 */
function closablePool(pool: pg.Pool) {
  let closed = false
  const never = () => new Promise<never>(() => {})
  const wrapped = {
    async connect() {
      if (closed) return never()
      const client = await pool.connect()
      if (!closed) return client
      client.release()
      return never()
    },
    query: (...args: Parameters<pg.Pool['query']>) => pool.query(...args),
  }
  return {
    pool: wrapped as unknown as pg.Pool,
    close() {
      closed = true
    },
  }
}

/** Milliseconds until a verified JWT's `exp`. */
function msUntilExpiry(token: string): number {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
    exp?: number
  }
  return typeof payload.exp === 'number' ? payload.exp * 1000 - Date.now() : MAX_TIMER_MS
}

/**
 * socket.io on the same server and port (docs/decisions/0017). The handshake carries the bearer token;
 * every socket joins its user's room and the rooms of the user's circles, and leaves a circle's room
 * the moment the membership ends. Domain events, published after their transaction committed, become
 * socket events here, each sent only to the people allowed to see it. Every operation below is a
 * broadcast through the adapter, so with PostgreSQL it reaches the sockets of every instance.
 */
export function attachSocketServer(app: FastifyInstance, deps: SocketDeps): SocketServer {
  const io: SocketServer = new Server(app.server, {
    path: SOCKET.path,
    serveClient: false,
    connectTimeout: SOCKET.timeoutMs,
  })
  const adapterPool = deps.pool ? closablePool(deps.pool) : undefined
  if (adapterPool) {
    io.adapter(
      createAdapter(adapterPool.pool, {
        errorHandler: (error) => app.log.warn({ err: error }, 'socket.io adapter error'),
      }),
    )
  }

  io.use(async (socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown }).token
    try {
      if (typeof token !== 'string') throw new Error('missing token')
      socket.data.userId = (await deps.authenticate(token)).id
      socket.data.circleIds = await deps.circleIdsOf(socket.data.userId)
      socket.data.expiresInMs = msUntilExpiry(token)
      next()
    } catch {
      next(new Error('Unauthorized'))
    }
  })
  io.on('connection', (socket) => {
    const { userId, circleIds, expiresInMs } = socket.data
    void socket.join([userRoom(userId), ...circleIds.map(circleRoom)])
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
      socket.emit('error', { message: 'Forbidden' })
    })
    socket.on('leave_circle', (circleId) => {
      if (typeof circleId === 'string') void socket.leave(circleRoom(circleId))
    })
    socket.emit('connected', { userId })
  })

  const { subscribe } = deps.events
  const unsubscribe = [
    subscribe('membership.started', ({ circleId, userId }) => {
      io.in(userRoom(userId)).socketsJoin(circleRoom(circleId))
      io.to(userRoom(userId)).emit('circle_joined', { circleId })
    }),
    subscribe('membership.ended', ({ circleId, userId }) => {
      io.in(userRoom(userId)).socketsLeave(circleRoom(circleId))
      io.to(userRoom(userId)).emit('circle_left', { circleId })
    }),
    subscribe('circle.updated', ({ circleId }) => {
      io.to(circleRoom(circleId)).emit('circle_update', { circleId })
    }),
    ...(['item.created', 'item.updated', 'item.deleted'] as const).map((name) =>
      subscribe(name, ({ circleId, itemId }) => {
        io.to(circleRoom(circleId)).emit('item_update', { itemId, circleId })
      }),
    ),
    // The parties only; other members learn of the item's change through item_update.
    subscribe('handover.changed', ({ handoverId, itemId, circleId, status, senderId, receiverId }) => {
      io.to([userRoom(senderId), userRoom(receiverId)]).emit('handover_update', {
        handoverId,
        itemId,
        circleId,
        status,
      })
    }),
    subscribe('activity.created', ({ notices }) => {
      for (const { userId, activity } of notices) io.to(userRoom(userId)).emit('new_activity', activity)
    }),
    subscribe('sessions.ended', ({ userId }) => {
      io.in(userRoom(userId)).disconnectSockets(true)
    }),
  ]

  // Before Fastify closes the HTTP server: open websockets would otherwise keep it waiting.
  app.addHook('preClose', async () => {
    for (const stop of unsubscribe) stop()
    io.local.disconnectSockets(true)
    io.engine.close()
    adapterPool?.close()
    await io.of('/').adapter.close()
  })
  return io
}
