import { MESSAGES } from '@circles/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser, uniqueEmail } from './support/factories'
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
      expect(res.json()).toEqual({ message: MESSAGES.invalidCredentials, code: 'INVALID_CREDENTIALS' })
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
    })
  })

  it('validates before checking anything', async () => {
    expect((await login({ email: 'x@y.z' })).json()).toEqual({
      message: MESSAGES.required,
      code: 'VALIDATION_ERROR',
    })
    expect((await login({ email: 'nope', password: 'x' })).json().message).toBe(MESSAGES.invalidEmail)
  })

  it('limits attempts per email (brute force) with 429 and Retry-After', async () => {
    const user = await createUser(t.database)
    for (let i = 0; i < 10; i++) {
      expect((await login({ email: user.email, password: `wrong-${i}` }, `10.1.0.${i}`)).statusCode).toBe(401)
    }
    const blocked = await login({ email: user.email, password: user.password }, '10.1.1.1')
    expect(blocked.statusCode).toBe(429)
    expect(blocked.json()).toMatchObject({ code: 'RATE_LIMITED', retryAfter: expect.any(Number) })
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0)
  })

  it('counts parallel guesses at once: no more than 10 reach the password check', async () => {
    const user = await createUser(t.database)
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => login({ email: user.email, password: `wrong-${i}` }, '10.1.2.1')),
    )
    const statuses = answers.map((res) => res.statusCode)
    expect(statuses.filter((status) => status === 401)).toHaveLength(10)
    expect(statuses.filter((status) => status === 429)).toHaveLength(10)
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
