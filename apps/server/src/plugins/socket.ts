import type { ClientToServerEvents, ServerToClientEvents, TUser } from '@circles/shared'
import { SOCKET } from '@circles/shared'
import type { FastifyInstance } from 'fastify'
import { Server } from 'socket.io'
import type { EventBus } from '../lib/events'

export interface SocketData {
  userId: string
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
  events: EventBus
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const userRoom = (userId: string) => `user:${userId}`
export const circleRoom = (circleId: string) => `circle:${circleId}`

/**
 * socket.io on the same server and port. The handshake carries the bearer token; every socket joins
 * its user's room, and a circle's room only after a membership check. When a membership ends, the
 * user's sockets leave the circle's room at once.
 */
export function attachSocketServer(app: FastifyInstance, deps: SocketDeps): SocketServer {
  const io: SocketServer = new Server(app.server, {
    path: SOCKET.path,
    serveClient: false,
    connectTimeout: SOCKET.timeoutMs,
  })
  io.use(async (socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown }).token
    try {
      if (typeof token !== 'string') throw new Error('missing token')
      socket.data.userId = (await deps.authenticate(token)).id
      next()
    } catch {
      next(new Error('Unauthorized'))
    }
  })
  io.on('connection', (socket) => {
    const { userId } = socket.data
    void socket.join(userRoom(userId))
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

  const unsubscribe = [
    deps.events.subscribe('membership.ended', ({ circleId, userId }) => {
      io.in(userRoom(userId)).socketsLeave(circleRoom(circleId))
      io.to(userRoom(userId)).emit('circle_left', { circleId })
    }),
    deps.events.subscribe('membership.started', ({ circleId, userId }) => {
      io.to(userRoom(userId)).emit('circle_joined', { circleId })
    }),
    deps.events.subscribe('circle.updated', ({ circleId }) => {
      io.to(circleRoom(circleId)).emit('circle_update', { circleId })
    }),
  ]

  // Before Fastify closes the HTTP server: open websockets would otherwise keep it waiting.
  app.addHook('preClose', async () => {
    for (const stop of unsubscribe) stop()
    io.local.disconnectSockets(true)
    io.engine.close()
  })
  return io
}
