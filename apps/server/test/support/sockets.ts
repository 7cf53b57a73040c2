import type { AddressInfo } from 'node:net'
import type { ClientToServerEvents, ServerToClientEvents } from '@circles/shared'
import { type Socket, io as connect } from 'socket.io-client'
import type { SignedIn } from './circles'
import type { TestApp } from './test-app'

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>

/** A connected socket.io client and every event it received, in order. */
export interface Listener {
  socket: ClientSocket
  /** `id`: the event id a room event carries (docs/decisions/0043). */
  received: { event: string; payload: unknown; id?: number }[]
  /** Resolves with the payload of the first `event` (already received or still to come) matching `match`. */
  next<T = unknown>(event: string, match?: (payload: T) => boolean): Promise<T>
  close(): void
}

export async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
}

export function tokenOf(who: SignedIn) {
  return who.auth.authorization.slice('Bearer '.length)
}

/** Connects as a user, like the web app does: polling first, then the upgrade to websocket. */
export async function connectAs(
  url: string,
  token: string,
  extra: { lastEventId?: number; firstEventId?: number; since?: string } = {},
): Promise<Listener> {
  const socket: ClientSocket = connect(url, {
    path: '/socket.io',
    auth: { token, ...extra },
    transports: ['polling', 'websocket'],
    reconnection: false,
    forceNew: true,
  })
  const received: Listener['received'] = []
  const waiters = new Set<() => void>()
  socket.onAny((event: string, payload: unknown, id?: unknown) => {
    received.push({ event, payload, ...(typeof id === 'number' && { id }) })
    for (const wake of waiters) wake()
  })
  await new Promise<void>((resolve, reject) => {
    socket.once('connected', () => resolve())
    socket.once('connect_error', reject)
  })
  return {
    socket,
    received,
    next<T>(event: string, match: (payload: T) => boolean = () => true) {
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`no ${event} within 5 s; received ${JSON.stringify(received)}`))
        }, 5000)
        function check() {
          const hit = received.find((r) => r.event === event && match(r.payload as T))
          if (!hit) return
          clearTimeout(timer)
          waiters.delete(check)
          resolve(hit.payload as T)
        }
        waiters.add(check)
        check()
      })
    },
    close: () => socket.close(),
  }
}

/** Fails if `connect` is accepted; resolves with the connect_error message. */
export async function refusedConnection(url: string, token: unknown): Promise<string> {
  return (await refusal(url, token)).message
}

/** The refusal's message and its `data` (code and key, as in an API error answer). */
export function refusal(url: string, token: unknown): Promise<{ message: string; data: unknown }> {
  const socket = connect(url, { path: '/socket.io', auth: { token }, reconnection: false, forceNew: true })
  return new Promise((resolve, reject) => {
    socket.once('connect', () => {
      socket.close()
      reject(new Error('the connection was accepted'))
    })
    socket.once('connect_error', (error: Error & { data?: unknown }) => {
      socket.close()
      resolve({ message: error.message, data: error.data })
    })
  })
}
