import { LIMITS } from '@circles/shared'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  decodeTokenPayload,
  footerVisible,
  getSession,
  isTokenExpired,
  logout,
  onLogout,
  restoreSession,
  startSession,
  storedLanguage,
  subscribeSession,
} from '@/lib/session'
import { expiredToken, makeToken, seedStoredSession, testUser, validToken } from '@/test/tokens'

const authKeysLeft = () => ['token', 'user', 'userId'].filter((key) => localStorage.getItem(key) !== null)

describe('decodeTokenPayload', () => {
  it('reads the claims of a three-part token, including UTF-8 and base64url characters', () => {
    const token = makeToken({ sub: 'u1', name: 'Jürgen ÿ?>', exp: 123 })
    expect(decodeTokenPayload(token)).toEqual({ sub: 'u1', name: 'Jürgen ÿ?>', exp: 123 })
  })

  it.each([
    ['two parts', 'abc.def'],
    ['four parts', 'a.b.c.d'],
    ['an empty part', `${makeToken({}).split('.')[0]}..sig`],
    ['a payload that is not base64 JSON', 'header.not-json!.sig'],
    ['a payload that is a JSON array', `h.${btoa('[1,2]')}.s`],
  ])('returns null for %s', (_label, token) => {
    expect(decodeTokenPayload(token)).toBeNull()
  })
})

describe('isTokenExpired', () => {
  const now = Date.UTC(2025, 0, 1)
  it('is true once exp (in seconds) has passed', () => {
    expect(isTokenExpired(makeToken({ exp: now / 1000 - 1 }), now)).toBe(true)
    expect(isTokenExpired(makeToken({ exp: now / 1000 }), now)).toBe(true)
    expect(isTokenExpired(makeToken({ exp: now / 1000 + 1 }), now)).toBe(false)
  })

  it('leaves a token without exp to the server', () => {
    expect(isTokenExpired(makeToken({ sub: 'u1' }), now)).toBe(false)
  })

  it('treats a malformed token as expired', () => {
    expect(isTokenExpired('not-a-jwt', now)).toBe(true)
  })
})

describe('restoring the stored session', () => {
  it('clears an expired token (and the user with it) when the app loads', async () => {
    seedStoredSession(expiredToken())
    vi.resetModules()
    const fresh = await import('@/lib/session')
    expect(fresh.getSession()).toEqual({ token: null, user: null })
    expect(authKeysLeft()).toEqual([])
  })

  it('restores a valid token and user when the app loads', async () => {
    const token = validToken()
    seedStoredSession(token)
    vi.resetModules()
    const fresh = await import('@/lib/session')
    expect(fresh.getSession()).toEqual({ token, user: testUser })
  })

  it('clears a malformed token', () => {
    seedStoredSession('only.two')
    expect(restoreSession()).toEqual({ token: null, user: null })
    expect(authKeysLeft()).toEqual([])
  })

  it('clears a token whose stored user is unreadable', () => {
    seedStoredSession(validToken())
    localStorage.setItem('user', '{not json')
    expect(restoreSession().token).toBeNull()
    expect(authKeysLeft()).toEqual([])
  })
})

describe('login and logout', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('stores token, user and userId and tells subscribers', () => {
    const listener = vi.fn()
    const unsubscribe = subscribeSession(listener)
    const token = validToken()
    startSession(token, testUser)
    unsubscribe()

    expect(listener).toHaveBeenCalledTimes(1)
    expect(getSession()).toEqual({ token, user: testUser })
    expect(localStorage.getItem('token')).toBe(token)
    expect(JSON.parse(localStorage.getItem('user') ?? '')).toEqual(testUser)
    expect(localStorage.getItem('userId')).toBe(testUser.id)
  })

  it(`clears the session ${LIMITS.logoutDelayMs} ms after logout is triggered, once for a burst`, async () => {
    startSession(validToken(), testUser)
    localStorage.setItem('language', 'de')
    const onEnd = vi.fn()
    const stop = onLogout(onEnd)

    const done = logout('Authentication token has expired. Please log in again.')
    void logout()
    await vi.advanceTimersByTimeAsync(LIMITS.logoutDelayMs - 1)
    expect(getSession().token).not.toBeNull()

    await vi.advanceTimersByTimeAsync(1)
    await done
    stop()
    expect(getSession()).toEqual({ token: null, user: null })
    expect(authKeysLeft()).toEqual([])
    expect(localStorage.getItem('language')).toBe('de')
    expect(onEnd).toHaveBeenCalledTimes(1)
    expect(onEnd).toHaveBeenCalledWith({ reason: 'Authentication token has expired. Please log in again.' })
  })
})

describe('another tab', () => {
  it('keeps a sign-in another tab is writing: its token may arrive before its user, and is not cleared', () => {
    localStorage.clear()
    restoreSession()
    const fresh = validToken({ jti: 'other-tab' })
    localStorage.setItem('token', fresh)
    window.dispatchEvent(new StorageEvent('storage', { key: 'token', newValue: fresh }))
    expect(localStorage.getItem('token')).toBe(fresh)
    expect(getSession().token).toBeNull()

    localStorage.setItem('user', JSON.stringify(testUser))
    window.dispatchEvent(new StorageEvent('storage', { key: 'user' }))
    expect(getSession()).toEqual({ token: fresh, user: testUser })
  })
})

describe('other stored values', () => {
  it('shows the footer unless it was hidden', () => {
    expect(footerVisible.get()).toBe(true)
    footerVisible.set(false)
    expect(localStorage.getItem('footerVisible')).toBe('false')
    expect(footerVisible.get()).toBe(false)
  })

  it('only accepts a supported language', () => {
    expect(storedLanguage.get()).toBeNull()
    localStorage.setItem('language', 'fr')
    expect(storedLanguage.get()).toBeNull()
    storedLanguage.set('de')
    expect(storedLanguage.get()).toBe('de')
  })
})

describe('the session cookie (docs/decisions/0068)', () => {
  /** The cookie's value; '' when there is none (an expired cookie may linger here with no value). */
  const sessionCookie = () =>
    document.cookie
      .split('; ')
      .find((part) => part.startsWith('circles_session='))
      ?.slice('circles_session='.length) ?? ''

  it('mirrors the token from sign-in to sign-out', async () => {
    const token = validToken()
    startSession(token, testUser)
    expect(sessionCookie()).toBe(token)
    await logout()
    expect(sessionCookie()).toBe('')
  })

  it('comes with a session stored before it, and goes with one that expired', async () => {
    const token = validToken()
    seedStoredSession(token)
    vi.resetModules()
    await import('@/lib/session')
    expect(sessionCookie()).toBe(token)
    seedStoredSession(expiredToken())
    expect(restoreSession().token).toBeNull()
    expect(sessionCookie()).toBe('')
  })
})
