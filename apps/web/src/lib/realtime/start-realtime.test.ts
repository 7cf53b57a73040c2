import { afterEach, describe, expect, it, vi } from 'vitest'
import * as firstReadModule from '@/lib/first-read'
import { createQueryClient } from '@/lib/query-client'
import { logout, startSession } from '@/lib/session'
import { testUser, validToken } from '@/test/tokens'
import { startRealtime } from './realtime'

interface FakeSocket {
  options: Record<string, unknown>
  on: ReturnType<typeof vi.fn>
  connect: () => void
  disconnect: () => void
}
const sockets = vi.hoisted(() => [] as FakeSocket[])
vi.mock('socket.io-client', () => ({
  io: vi.fn((options: Record<string, unknown>) => {
    const socket = { options, connected: false, on: vi.fn(), connect: vi.fn(), disconnect: vi.fn() }
    sockets.push(socket)
    return socket
  }),
}))

/** What the handshake sends: socket.io calls the `auth` function at every (re)connection. */
function handshake(socket: FakeSocket) {
  let sent: unknown
  ;(socket.options.auth as (send: (auth: unknown) => void) => void)((auth) => (sent = auth))
  return sent
}

/** Delivers a server event to the listeners the app registered. */
function receive(socket: FakeSocket, event: string, ...args: unknown[]) {
  for (const [name, listener] of socket.on.mock.calls as [string, (...a: unknown[]) => void][]) {
    if (name === event) listener(...args)
  }
}

afterEach(() => {
  sockets.length = 0
  localStorage.clear()
})

describe('startRealtime (spec 000 §4, §7)', () => {
  it('connects with the token after login, again for a new token, and disconnects on logout', async () => {
    const stop = startRealtime({ queryClient: createQueryClient(), navigate: vi.fn() })
    expect(sockets).toHaveLength(0)

    const token = validToken()
    startSession(token, testUser)
    await vi.waitFor(() => expect(sockets).toHaveLength(1))
    expect(handshake(sockets[0]!)).toEqual({ token })
    expect(sockets[0]!.options).toMatchObject({
      path: '/socket.io',
      transports: ['polling', 'websocket'],
      timeout: 30_000,
      reconnection: false,
    })
    expect(sockets[0]!.connect).toHaveBeenCalledTimes(1)

    const renewed = validToken({ iat: 1 })
    startSession(renewed, testUser)
    await vi.waitFor(() => expect(sockets).toHaveLength(2))
    expect(sockets[0]!.disconnect).toHaveBeenCalled()
    expect(handshake(sockets[1]!)).toEqual({ token: renewed })

    await logout()
    expect(sockets[1]!.disconnect).toHaveBeenCalled()
    stop()
  })
})

describe('reconnecting without losing events (docs/decisions/0043)', () => {
  it('says on a first connection when the page first read its data, and never after (0067)', async () => {
    vi.spyOn(firstReadModule, 'firstRead').mockReturnValue({ since: '2026-11-27T09:00:00.000Z', wallAt: 1 })
    const stop = startRealtime({ queryClient: createQueryClient(), navigate: vi.fn() })
    const token = validToken()
    startSession(token, testUser)
    await vi.waitFor(() => expect(sockets).toHaveLength(1))
    expect(handshake(sockets[0]!)).toEqual({ token, since: '2026-11-27T09:00:00.000Z' })
    receive(sockets[0]!, 'connected', { userId: testUser.id, lastEventId: 40, replayedSince: true })
    expect(handshake(sockets[0]!)).toEqual({ token, lastEventId: 40, firstEventId: 40 })
    await logout()
    stop()
    vi.restoreAllMocks()
  })

  it('sends the last event id seen, and the first, at every reconnection, across a new token', async () => {
    const stop = startRealtime({ queryClient: createQueryClient(), navigate: vi.fn() })
    startSession(validToken(), testUser)
    await vi.waitFor(() => expect(sockets).toHaveLength(1))
    const socket = sockets[0]!
    receive(socket, 'connected', { userId: testUser.id, lastEventId: 40 })
    expect(handshake(socket)).toMatchObject({ lastEventId: 40, firstEventId: 40 })
    receive(socket, 'item_update', { itemId: 'i', circleId: 'c' }, 41)
    receive(socket, 'connected', { userId: testUser.id, lastEventId: 41 })
    receive(socket, 'handover_update', { handoverId: 'h', itemId: 'i', circleId: 'c', status: 'PENDING' }, 43)
    expect(handshake(socket)).toMatchObject({ lastEventId: 43, firstEventId: 40 })

    const renewed = validToken({ iat: 1 })
    startSession(renewed, testUser)
    await vi.waitFor(() => expect(sockets).toHaveLength(2))
    expect(handshake(sockets[1]!)).toEqual({ token: renewed, lastEventId: 43, firstEventId: 40 })
    await logout()
    stop()
  })
})
