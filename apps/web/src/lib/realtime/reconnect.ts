import { SOCKET } from '@circles/shared'
import type { ClientToServerEvents, ServerToClientEvents } from '@circles/shared'
import type { Socket } from 'socket.io-client'

export type RealtimeSocket = Socket<ServerToClientEvents, ClientToServerEvents>

/**
 * The wait before reconnection attempt `attempt` (1-based), spec 000 §4: 1 s, doubling, plus up to
 * half of it again as random jitter (so a room full of phones does not come back in step), at most 30 s.
 */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const base = SOCKET.baseDelayMs * 2 ** (attempt - 1)
  return Math.min(SOCKET.maxDelayMs, Math.round(base + base * 0.5 * random()))
}

export interface KeepConnectedOptions {
  /** After SOCKET.reconnectAttempts failed attempts in a row. */
  onGiveUp(): void
  /**
   * The server refused the connection and said not to retry (`data.retry === false`, e.g. too many
   * sockets for the account): no further attempt until the page is reloaded. `refusal` carries the
   * server's `data` (code and key).
   */
  onRefused?(message: string, refusal: Error & { data?: unknown }): void
  random?: () => number
}

/**
 * Connects the socket and keeps it connected: after a connection error or a disconnect the client did
 * not ask for, it tries again up to SOCKET.reconnectAttempts times with `reconnectDelay`; a success
 * starts the count afresh. socket.io's own reconnection is off, since it gives up on a server disconnect.
 */
export function keepConnected(socket: RealtimeSocket, opts: KeepConnectedOptions) {
  let attempts = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  let gaveUp = false
  let refused = false

  const retry = () => {
    if (stopped || timer !== undefined) return
    if (attempts >= SOCKET.reconnectAttempts) {
      if (!gaveUp) opts.onGiveUp()
      gaveUp = true
      return
    }
    attempts += 1
    const delay =
      soonWithinMs === undefined
        ? reconnectDelay(attempts, opts.random)
        : Math.round(soonWithinMs * (opts.random ?? Math.random)())
    soonWithinMs = undefined
    timer = setTimeout(() => {
      timer = undefined
      if (!stopped) socket.connect()
    }, delay)
  }

  // The instance is shutting down (docs/operations.md, Rolling restarts): its disconnect follows, and
  // the next attempt comes after a short random wait instead of the usual second or more, so the
  // sockets of one instance spread over the others without arriving all at once.
  let soonWithinMs: number | undefined
  socket.on('reconnect_soon', ({ withinMs }) => {
    soonWithinMs = withinMs
  })
  socket.on('connect', () => {
    attempts = 0
    gaveUp = false
    soonWithinMs = undefined
  })
  socket.on('connect_error', (error: Error & { data?: { retry?: unknown } }) => {
    if (error.data?.retry === false) {
      refused = true
      opts.onRefused?.(error.message, error)
      return
    }
    retry()
  })
  socket.on('disconnect', (reason) => {
    if (reason !== 'io client disconnect') retry()
  })
  socket.connect()

  return {
    /** The network is back or the tab is visible again: start afresh if the socket is down. */
    retryNow() {
      if (stopped || refused || socket.connected || (timer !== undefined && !gaveUp)) return
      attempts = 0
      gaveUp = false
      socket.connect()
    },
    stop() {
      stopped = true
      clearTimeout(timer)
      socket.disconnect()
    },
  }
}
