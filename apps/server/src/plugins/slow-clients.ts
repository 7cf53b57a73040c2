import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { MESSAGES } from '@circles/shared'
import type { FastifyBaseLogger } from 'fastify'
import { errorBody } from '../lib/errors'

/** How long a client may take to send a request (docs/decisions/0026-slow-and-greedy-clients.md). */
export interface RequestTimeouts {
  /** The request line and all headers must arrive within this. */
  headersTimeoutMs: number
  /** A body's first grace period; every `bodyMinBytesPerSecond` bytes received extend it by a second. */
  bodyTimeoutMs: number
  bodyMinBytesPerSecond: number
  /** The whole request, headers and body, whatever its pace: the ceiling for the slowest upload. */
  requestTimeoutMs: number
  /** A connection with no byte in either direction for this long is closed. */
  idleTimeoutMs: number
  /** An idle keep-alive connection waits this long for its next request. */
  keepAliveTimeoutMs: number
}

const TIMEOUT_BODY = JSON.stringify(errorBody('REQUEST_TIMEOUT', MESSAGES.requestTimeout))
const TIMEOUT_ANSWER = [
  'HTTP/1.1 408 Request Timeout',
  'Connection: close',
  'Content-Type: application/json; charset=utf-8',
  `Content-Length: ${Buffer.byteLength(TIMEOUT_BODY)}`,
  '',
  TIMEOUT_BODY,
].join('\r\n')

/** Answers 408 with a message when nothing was answered yet, then closes the connection. */
function cutOff(socket: Socket, answered: boolean) {
  if (socket.destroyed) return
  if (!answered && socket.writable) socket.end(TIMEOUT_ANSWER, () => socket.destroy())
  else socket.destroy()
}

/**
 * Fastify's options for Node's HTTP server. Node checks the header and request deadlines of open
 * connections only every `connectionsCheckingInterval` (30 s by default); a tenth of the header
 * deadline, at most a second, cuts a trickling client close to its deadline.
 */
export function serverTimeoutOptions(t: RequestTimeouts) {
  return {
    connectionTimeout: t.idleTimeoutMs,
    keepAliveTimeout: t.keepAliveTimeoutMs,
    requestTimeout: t.requestTimeoutMs,
    http: {
      headersTimeout: t.headersTimeoutMs,
      requestTimeout: t.requestTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(t.headersTimeoutMs / 10))),
    },
    /**
     * Node's header and request deadlines land here, and requests it cannot parse: a 4xx with a message
     * in the API's shape, then the connection closes.
     */
    clientErrorHandler(error: Error & { code?: string }, socket: Socket) {
      if (error.code === 'ECONNRESET' || socket.destroyed) return
      if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return cutOff(socket, false)
      const [status, message] =
        error.code === 'HPE_HEADER_OVERFLOW'
          ? ['431 Request Header Fields Too Large', MESSAGES.requestHeadersTooLarge]
          : ['400 Bad Request', MESSAGES.malformedRequest]
      const body = JSON.stringify(errorBody('BAD_REQUEST', message))
      if (socket.writable) {
        socket.write(
          `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        )
      }
      socket.destroy()
    },
  }
}

function hasBody(request: IncomingMessage) {
  const length = request.headers['content-length']
  if (length !== undefined) return Number(length) > 0
  return request.headers['transfer-encoding'] !== undefined
}

/**
 * A body must keep arriving at a minimum pace (Apache's mod_reqtimeout `body=20,MinRate=500`): it gets
 * `bodyTimeoutMs` to start with, and every `bodyMinBytesPerSecond` bytes received add a second. A body
 * sent a byte every few seconds is cut after the grace period; a phone uploading a picture at a few
 * hundred kbit/s earns far more time than it needs. Node's `requestTimeout` stays the ceiling of the
 * whole request. Applies to every request on the server, socket.io's polling included.
 */
export function guardBodyPace(server: Server, t: RequestTimeouts, log: FastifyBaseLogger) {
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!hasBody(request)) return
    const socket = request.socket
    const startedAt = Date.now()
    const bytesAtStart = socket.bytesRead
    let timer: NodeJS.Timeout | undefined
    const check = () => {
      if (request.complete || socket.destroyed) return
      const received = socket.bytesRead - bytesAtStart
      const deadline = startedAt + t.bodyTimeoutMs + (received / t.bodyMinBytesPerSecond) * 1000
      const wait = deadline - Date.now()
      if (wait > 0) {
        timer = setTimeout(check, wait)
        return
      }
      log.info({ received, ms: Date.now() - startedAt }, 'request body too slow: connection closed')
      cutOff(socket, response.headersSent)
    }
    timer = setTimeout(check, t.bodyTimeoutMs)
    response.once('close', () => clearTimeout(timer))
  })
}
