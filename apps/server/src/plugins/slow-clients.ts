import { randomUUID } from 'node:crypto'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { MESSAGES } from '@circles/shared'
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import { errorBody } from '../lib/errors'
import { requestIdOf } from '../lib/request-id'

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
/** The 408, with the request's id (docs/decisions/0042). */
const timeoutAnswer = (requestId: string) =>
  [
    'HTTP/1.1 408 Request Timeout',
    'Connection: close',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(TIMEOUT_BODY)}`,
    `X-Request-Id: ${requestId}`,
    '',
    TIMEOUT_BODY,
  ].join('\r\n')

/** Answers 408 with a message when nothing was answered yet, then closes the connection. */
function cutOff(socket: Socket, answered: boolean, requestId: string) {
  if (socket.destroyed) return
  if (!answered && socket.writable) socket.end(timeoutAnswer(requestId), () => socket.destroy())
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
    clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Socket) {
      if (error.code === 'ECONNRESET' || socket.destroyed) return
      // No request was read, so Fastify gave it no id: this answer gets one, and its log line the same.
      const requestId = randomUUID()
      this.log.info({ reqId: requestId, code: error.code }, 'request refused before it was read')
      if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return cutOff(socket, false, requestId)
      const [status, message] =
        error.code === 'HPE_HEADER_OVERFLOW'
          ? ['431 Request Header Fields Too Large', MESSAGES.requestHeadersTooLarge]
          : ['400 Bad Request', MESSAGES.malformedRequest]
      const body = JSON.stringify(errorBody('BAD_REQUEST', message))
      if (socket.writable) {
        socket.write(
          `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\n\r\n${body}`,
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
      const reqId = requestIdOf(request) ?? randomUUID()
      log.info({ reqId, received, ms: Date.now() - startedAt }, 'request body too slow: connection closed')
      cutOff(socket, response.headersSent, reqId)
    }
    timer = setTimeout(check, t.bodyTimeoutMs)
    response.once('close', () => clearTimeout(timer))
  })
}
