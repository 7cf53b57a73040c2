import type { ClientToServerEvents, ServerToClientEvents, TUser } from '@circles/shared'
import { SOCKET } from '@circles/shared'
import type { FastifyInstance } from 'fastify'
import { Server } from 'socket.io'

export interface SocketData {
  userId: string
}

export type SocketServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  SocketData
>

/**
 * socket.io on the same server and port. The handshake carries the bearer token; every socket joins
 * its user's room. Circle rooms and domain events arrive with the notifications module.
 */
export function attachSocketServer(
  app: FastifyInstance,
  authenticate: (token: string) => Promise<TUser>,
): SocketServer {
  const io: SocketServer = new Server(app.server, {
    path: SOCKET.path,
    serveClient: false,
    connectTimeout: SOCKET.timeoutMs,
  })
  io.use(async (socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown }).token
    try {
      if (typeof token !== 'string') throw new Error('missing token')
      socket.data.userId = (await authenticate(token)).id
      next()
    } catch {
      next(new Error('Unauthorized'))
    }
  })
  io.on('connection', (socket) => {
    void socket.join(`user:${socket.data.userId}`)
    socket.emit('connected', { userId: socket.data.userId })
  })
  // Before Fastify closes the HTTP server: open websockets would otherwise keep it waiting.
  app.addHook('preClose', async () => {
    io.local.disconnectSockets(true)
    io.engine.close()
  })
  return io
}
