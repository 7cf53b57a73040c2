import { MESSAGES } from '@circles/shared'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { LOGIN_GUESSING, RATE_RULES } from '../src/lib/rate-limits'
import { createUser, uniqueEmail } from './support/factories'
import { listen } from './support/sockets'
import { type TestApp, createTestApp } from './support/test-app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const login = (payload: object, ip = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/users/login', payload, remoteAddress: ip })

const expiry = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).exp - Date.now() / 1000

describe('POST /api/users/login', () => {
  it('returns a token and the user; remember me lasts 30 days instead of 1', async () => {
    const user = await createUser(t.database, { name: 'Ada' })
    const res = await login({ email: user.email, password: user.password })
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.user).toEqual({
      id: user.id,
      name: 'Ada',
      email: user.email,
      emailVerified: true,
      language: 'en',
      createdAt: user.createdAt.toISOString(),
      avatarUrl: null,
      timeZone: null,
    })
    expect(body.user.passwordHash).toBeUndefined()
    expect(expiry(body.token)).toBeGreaterThan(23 * 3600)
    expect(expiry(body.token)).toBeLessThanOrEqual(24 * 3600)

    const remembered = await login({ email: user.email, password: user.password, rememberMe: true })
    expect(expiry(remembered.json().token)).toBeGreaterThan(29 * 24 * 3600)
  })

  it('refuses a wrong password and an unknown email alike', async () => {
    const user = await createUser(t.database)
    for (const payload of [
      { email: user.email, password: 'wrong password' },
      { email: uniqueEmail('nobody'), password: user.password },
    ]) {
      const res = await login(payload)
      expect(res.statusCode).toBe(401)
      expect(res.json()).toEqual({
        message: MESSAGES.invalidCredentials,
        code: 'INVALID_CREDENTIALS',
        key: 'invalidCredentials',
      })
    }
  })

  it('tells an unverified user to verify, with emailVerified false', async () => {
    const user = await createUser(t.database, { verified: false })
    const res = await login({ email: user.email, password: user.password })
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({
      message: MESSAGES.emailNotVerified,
      code: 'EMAIL_NOT_VERIFIED',
      emailVerified: false,
      key: 'emailNotVerified',
    })
  })

  it('validates before checking anything', async () => {
    expect((await login({ email: 'x@y.z' })).json()).toEqual({
      message: MESSAGES.required,
      code: 'VALIDATION_ERROR',
      key: 'required',
    })
    expect((await login({ email: 'nope', password: 'x' })).json().message).toBe(MESSAGES.invalidEmail)
  })

  it('does not let an attacker failing 50 times from one address lock the owner out of theirs', async () => {
    const owner = await createUser(t.database)
    const statuses: number[] = []
    for (let i = 0; i < 50; i++) {
      statuses.push((await login({ email: owner.email, password: `guess-${i}` }, '10.1.0.1')).statusCode)
    }
    // The guesser got its free failures and one more, then waits 2 s, 4 s, 8 s…: of the rest, only the
    // first attempt after each wait reached a password check.
    expect(statuses.slice(0, LOGIN_GUESSING.freeFailures + 1).every((s) => s === 401)).toBe(true)
    expect(statuses.filter((s) => s === 401).length).toBeLessThan(LOGIN_GUESSING.freeFailures + 5)
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([])
    const owners = await login({ email: owner.email, password: owner.password }, '10.1.0.2')
    expect(owners.statusCode).toBe(200)
    // Even a typo first: one failure from the owner's address costs nothing.
    expect((await login({ email: owner.email, password: 'typo' }, '10.1.0.3')).statusCode).toBe(401)
    expect((await login({ email: owner.email, password: owner.password }, '10.1.0.3')).statusCode).toBe(200)
  })

  it('slows guessing from one address with waits that grow, and lets the right password in after one', async () => {
    const user = await createUser(t.database)
    const ip = '10.1.1.1'
    const attempt = (password: string) => login({ email: user.email, password }, ip)
    // The waits run on the test clock: a loaded machine's slow password checks must not shorten them.
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      for (let i = 0; i <= LOGIN_GUESSING.freeFailures; i++)
        expect((await attempt(`wrong-${i}`)).statusCode).toBe(401)
      // Now every attempt waits, the right password too: 2 s, then 4 s, doubling.
      const first = await attempt(user.password)
      expect(first.statusCode).toBe(429)
      expect(first.json()).toEqual({
        message: MESSAGES.tooManyRequests,
        code: 'RATE_LIMITED',
        retryAfter: 2,
        key: 'tooManyRequests',
      })
      expect(first.headers['retry-after']).toBe('2')
      vi.setSystemTime(Date.now() + 1000)
      expect((await attempt(user.password)).json().retryAfter).toBe(1)
      vi.setSystemTime(Date.now() + 1000)
      expect((await attempt('wrong-again')).statusCode).toBe(401)
      const second = await attempt(user.password)
      expect(second.statusCode).toBe(429)
      expect(second.json().retryAfter).toBe(4)
      // The owner at this address waits seconds, not a quarter of an hour; then the slate is clean.
      vi.setSystemTime(Date.now() + 4000)
      expect((await attempt(user.password)).statusCode).toBe(200)
      for (let i = 0; i < LOGIN_GUESSING.freeFailures; i++)
        expect((await attempt(`wrong-${i}`)).statusCode).toBe(401)
    } finally {
      vi.useRealTimers()
    }
  })

  it('guessed from many addresses, slows every address after a failure or two, never the owner', async () => {
    const owner = await createUser(t.database)
    const over = RATE_RULES.loginFailuresPerAccount.points + 5
    for (let i = 0; i < over; i++) {
      expect((await login({ email: owner.email, password: `guess-${i}` }, `10.5.${i}.1`)).statusCode).toBe(
        401,
      )
    }
    // Any of those addresses has one more try at most, then waits half a minute and more.
    await login({ email: owner.email, password: 'guess-again' }, '10.5.0.1')
    const waits = await login({ email: owner.email, password: 'guess-again' }, '10.5.0.1')
    expect(waits.statusCode).toBe(429)
    expect(waits.json().retryAfter).toBeGreaterThan(30)
    expect((await login({ email: owner.email, password: owner.password }, '10.5.200.1')).statusCode).toBe(200)
  })

  it('counts parallel guesses at once: only the free failures and one more reach the password check', async () => {
    const user = await createUser(t.database)
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => login({ email: user.email, password: `wrong-${i}` }, '10.1.2.1')),
    )
    const statuses = answers.map((res) => res.statusCode)
    expect(statuses.filter((status) => status === 401)).toHaveLength(LOGIN_GUESSING.freeFailures + 1)
    expect(statuses.filter((status) => status === 429)).toHaveLength(20 - LOGIN_GUESSING.freeFailures - 1)
  })

  it('lets 30 people behind one router in, each after a couple of typos', async () => {
    // The real address the app sees: a socket from this machine, like a makerspace behind one router.
    const url = await listen(t)
    const people = await Promise.all(Array.from({ length: 30 }, () => createUser(t.database)))
    const viaSocket = async (email: string, password: string) => {
      const res = await fetch(`${url}/api/users/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      })
      return res.status
    }
    for (const person of people) {
      expect(await viaSocket(person.email, `${person.password}x`)).toBe(401)
      expect(await viaSocket(person.email, person.password.toUpperCase())).toBe(401)
    }
    for (const person of people) expect(await viaSocket(person.email, person.password)).toBe(200)
  })

  it('limits failed attempts per address across emails; sign-ins that succeed do not count', async () => {
    // A makerspace router: 95 failed guesses, 10 people signing in, then the limit is 100 failures.
    const ip = '10.2.0.1'
    for (let i = 0; i < 95; i++) {
      expect((await login({ email: uniqueEmail('spray'), password: 'whatever1' }, ip)).statusCode).toBe(401)
    }
    const user = await createUser(t.database)
    for (let i = 0; i < 10; i++) {
      expect((await login({ email: user.email, password: user.password }, ip)).statusCode).toBe(200)
    }
    for (let i = 0; i < 5; i++) {
      expect((await login({ email: uniqueEmail('spray'), password: 'whatever1' }, ip)).statusCode).toBe(401)
    }
    expect((await login({ email: user.email, password: user.password }, ip)).statusCode).toBe(429)
    expect((await login({ email: user.email, password: user.password }, '10.2.0.2')).statusCode).toBe(200)
  })
})
