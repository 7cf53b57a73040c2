import { SOCKET } from '@circles/shared'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type RealtimeSocket, keepConnected, reconnectDelay } from './reconnect'

/** Just enough of a socket.io client socket: listeners, connect() and disconnect(). */
function fakeSocket() {
  const listeners = new Map<string, ((...args: unknown[]) => void)[]>()
  const socket = {
    connected: false,
    connects: 0,
    on(event: string, listener: (...args: unknown[]) => void) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener])
      return socket
    },
    connect() {
      socket.connects += 1
      return socket
    },
    disconnect() {
      socket.connected = false
      socket.emit('disconnect', 'io client disconnect')
      return socket
    },
    emit(event: string, ...args: unknown[]) {
      for (const listener of listeners.get(event) ?? []) listener(...args)
    },
  }
  return socket
}

describe('reconnectDelay (spec 000 §4, §9)', () => {
  it('starts at 1 s and doubles, plus at most half again as jitter, capped at 30 s', () => {
    expect([1, 2, 3, 4, 5].map((n) => reconnectDelay(n, () => 0))).toEqual([1000, 2000, 4000, 8000, 16000])
    expect(reconnectDelay(1, () => 1)).toBe(1500)
    expect(reconnectDelay(5, () => 1)).toBe(24_000)
    expect(reconnectDelay(6, () => 0)).toBe(SOCKET.maxDelayMs)
    expect(reconnectDelay(9, () => 0)).toBe(SOCKET.maxDelayMs)
  })
})

describe('keepConnected', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('tries five times after failures, then gives up once', () => {
    const socket = fakeSocket()
    const onGiveUp = vi.fn()
    keepConnected(socket as unknown as RealtimeSocket, { onGiveUp, random: () => 0 })
    expect(socket.connects).toBe(1)
    for (const wait of [1000, 2000, 4000, 8000, 16000]) {
      socket.emit('connect_error', new Error('xhr poll error'))
      vi.advanceTimersByTime(wait - 1)
      const before = socket.connects
      vi.advanceTimersByTime(1)
      expect(socket.connects).toBe(before + 1)
    }
    socket.emit('connect_error', new Error('xhr poll error'))
    vi.advanceTimersByTime(60_000)
    expect(socket.connects).toBe(6)
    expect(onGiveUp).toHaveBeenCalledTimes(1)
  })

  it('starts counting afresh after a success, and comes back after a server disconnect', () => {
    const socket = fakeSocket()
    const onGiveUp = vi.fn()
    keepConnected(socket as unknown as RealtimeSocket, { onGiveUp, random: () => 0 })
    socket.emit('connect_error', new Error('timeout'))
    vi.advanceTimersByTime(1000)
    socket.emit('connect')
    socket.emit('disconnect', 'io server disconnect')
    vi.advanceTimersByTime(1000)
    expect(socket.connects).toBe(3)
    expect(onGiveUp).not.toHaveBeenCalled()
  })

  it('stays down after stop, and retries at once when asked after giving up', () => {
    const socket = fakeSocket()
    const onGiveUp = vi.fn()
    const kept = keepConnected(socket as unknown as RealtimeSocket, { onGiveUp, random: () => 0 })
    for (let i = 0; i <= SOCKET.reconnectAttempts; i++) {
      socket.emit('connect_error', new Error('offline'))
      vi.advanceTimersByTime(SOCKET.maxDelayMs)
    }
    expect(onGiveUp).toHaveBeenCalledTimes(1)
    const before = socket.connects
    kept.retryNow()
    expect(socket.connects).toBe(before + 1)
    kept.stop()
    socket.emit('connect_error', new Error('offline'))
    vi.advanceTimersByTime(SOCKET.maxDelayMs)
    expect(socket.connects).toBe(before + 1)
  })

  it('does not retry a refusal that says so, not even when the tab comes back, and says why', () => {
    const socket = fakeSocket()
    const onGiveUp = vi.fn()
    const onRefused = vi.fn()
    const kept = keepConnected(socket as unknown as RealtimeSocket, { onGiveUp, onRefused, random: () => 0 })
    const refusal = Object.assign(new Error('Too many open connections'), {
      data: { code: 'TOO_MANY_SOCKETS', retry: false },
    })
    socket.emit('connect_error', refusal)
    vi.advanceTimersByTime(10 * SOCKET.maxDelayMs)
    kept.retryNow()
    expect(socket.connects).toBe(1)
    expect(onRefused).toHaveBeenCalledExactlyOnceWith('Too many open connections', expect.any(Error))
    expect(onGiveUp).not.toHaveBeenCalled()
  })

  it('comes back within the server’s short window, not after a second, when its instance shuts down', () => {
    const socket = fakeSocket()
    keepConnected(socket as unknown as RealtimeSocket, { onGiveUp: vi.fn(), random: () => 0.5 })
    socket.emit('connect')
    socket.emit('reconnect_soon', { withinMs: 1000 })
    socket.emit('disconnect', 'io server disconnect')
    vi.advanceTimersByTime(499)
    expect(socket.connects).toBe(1)
    vi.advanceTimersByTime(1)
    expect(socket.connects).toBe(2)
    // Once: the next failure waits as usual (the second attempt: 2 s, plus a quarter at 0.5).
    socket.emit('connect_error', new Error('xhr poll error'))
    vi.advanceTimersByTime(2499)
    expect(socket.connects).toBe(2)
    vi.advanceTimersByTime(1)
    expect(socket.connects).toBe(3)
  })
})
