import { afterEach, describe, expect, it, vi } from 'vitest'
import { createQueryClient } from '@/lib/query-client'
import { logout, startSession } from '@/lib/session'
import { testUser, validToken } from '@/test/tokens'
import { startRealtime } from './realtime'

const sockets = vi.hoisted(
  () => [] as { options: Record<string, unknown>; connect: () => void; disconnect: () => void }[],
)
vi.mock('socket.io-client', () => ({
  io: vi.fn((options: Record<string, unknown>) => {
    const socket = { options, connected: false, on: vi.fn(), connect: vi.fn(), disconnect: vi.fn() }
    sockets.push(socket)
    return socket
  }),
}))

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
    expect(sockets[0]!.options).toMatchObject({
      path: '/socket.io',
      auth: { token },
      transports: ['polling', 'websocket'],
      timeout: 30_000,
      reconnection: false,
    })
    expect(sockets[0]!.connect).toHaveBeenCalledTimes(1)

    const renewed = validToken({ iat: 1 })
    startSession(renewed, testUser)
    await vi.waitFor(() => expect(sockets).toHaveLength(2))
    expect(sockets[0]!.disconnect).toHaveBeenCalled()
    expect(sockets[1]!.options).toMatchObject({ auth: { token: renewed } })

    await logout()
    expect(sockets[1]!.disconnect).toHaveBeenCalled()
    stop()
  })
})
