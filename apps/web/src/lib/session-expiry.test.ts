import { LIMITS, MESSAGES } from '@circles/shared'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { getSession, onLogout, startSession } from '@/lib/session'
import { tokenExpiresAt, watchSessionExpiry } from '@/lib/session-expiry'
import { makeToken, testUser } from '@/test/tokens'

const nowSeconds = () => Math.floor(Date.now() / 1000)

let stop: () => void = () => undefined

beforeEach(() => {
  vi.useFakeTimers()
})

afterEach(async () => {
  stop()
  await vi.runAllTimersAsync()
  vi.useRealTimers()
})

describe('session expiry while the app is open (spec 000 §8)', () => {
  it('reads the exp claim', () => {
    expect(tokenExpiresAt(makeToken({ exp: 1_800_000_000 }))).toBe(1_800_000_000_000)
    expect(tokenExpiresAt(makeToken({ sub: 'x' }))).toBeNull()
  })

  it('logs out with the expired-token message when the token runs out', async () => {
    const reasons: Array<string | undefined> = []
    const unsubscribe = onLogout(({ reason }) => reasons.push(reason))
    startSession(makeToken({ sub: testUser.id, exp: nowSeconds() + 30 }), testUser)
    stop = watchSessionExpiry()

    await vi.advanceTimersByTimeAsync(29_000)
    expect(getSession().token).not.toBeNull()
    await vi.advanceTimersByTimeAsync(1_000 + LIMITS.logoutDelayMs)
    expect(getSession().token).toBeNull()
    expect(reasons).toEqual([MESSAGES.tokenExpired])
    unsubscribe()
  })

  it('follows a new session and leaves a token without exp alone', async () => {
    stop = watchSessionExpiry()
    startSession(makeToken({ sub: testUser.id }), testUser)
    await vi.advanceTimersByTimeAsync(60 * 60 * 1000)
    expect(getSession().token).not.toBeNull()

    startSession(makeToken({ sub: testUser.id, exp: nowSeconds() + 5 }), testUser)
    await vi.advanceTimersByTimeAsync(5_000 + LIMITS.logoutDelayMs)
    expect(getSession().token).toBeNull()
  })

  it('stops watching after cleanup', async () => {
    startSession(makeToken({ sub: testUser.id, exp: nowSeconds() + 5 }), testUser)
    watchSessionExpiry()()
    await vi.advanceTimersByTimeAsync(10_000)
    expect(getSession().token).not.toBeNull()
  })
})
