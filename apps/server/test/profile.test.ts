import { MESSAGES } from '@circles/shared'
import { createSigner } from 'fast-jwt'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser } from './support/factories'
import { type TestApp, createTestApp } from './support/test-app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

async function signedIn() {
  const user = await createUser(t.database, { name: 'Ada' })
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/users/login',
    payload: { email: user.email, password: user.password },
  })
  return { user, auth: { authorization: `Bearer ${res.json().token}` } }
}

describe('GET /api/users/status/:id', () => {
  it('tells the signed-in user their own verification status', async () => {
    const { user, auth } = await signedIn()
    const res = await t.app.inject({ method: 'GET', url: `/api/users/status/${user.id}`, headers: auth })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ id: user.id, emailVerified: true })
  })

  it("does not tell anyone else's", async () => {
    const { auth } = await signedIn()
    const other = await createUser(t.database)
    const res = await t.app.inject({ method: 'GET', url: `/api/users/status/${other.id}`, headers: auth })
    expect(res.statusCode).toBe(403)
    expect(res.json()).toEqual({ message: MESSAGES.forbidden, code: 'FORBIDDEN', key: 'forbidden' })
  })

  it('needs a valid bearer token and a uuid', async () => {
    const { user, auth } = await signedIn()
    const none = await t.app.inject({ method: 'GET', url: `/api/users/status/${user.id}` })
    expect(none.statusCode).toBe(401)
    expect(none.json()).toEqual({ message: MESSAGES.unauthorized, code: 'UNAUTHORIZED', key: 'unauthorized' })
    const junk = await t.app.inject({
      method: 'GET',
      url: `/api/users/status/${user.id}`,
      headers: { authorization: 'Bearer not.a.token' },
    })
    expect(junk.statusCode).toBe(401)
    const badId = await t.app.inject({ method: 'GET', url: '/api/users/status/123', headers: auth })
    expect(badId.statusCode).toBe(400)
    expect(badId.json().message).toBe(MESSAGES.invalidUserId)
  })

  it('says when a token has expired', async () => {
    const { user } = await signedIn()
    const expired = createSigner({ key: 'test-secret-'.padEnd(48, 'x'), algorithm: 'HS256' })({
      userId: user.id,
      sv: 0,
      exp: Math.floor(Date.now() / 1000) - 60,
    })
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/users/status/${user.id}`,
      headers: { authorization: `Bearer ${expired}` },
    })
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({ message: MESSAGES.tokenExpired, code: 'TOKEN_EXPIRED', key: 'tokenExpired' })
  })
})

describe('PUT /api/users/me', () => {
  it('changes the name (and language) and returns the user', async () => {
    const { user, auth } = await signedIn()
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/users/me',
      headers: auth,
      payload: { name: '  Ada L.  ', language: 'de' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().user).toMatchObject({ id: user.id, name: 'Ada L.', language: 'de', email: user.email })
    const me = await t.app.inject({ method: 'GET', url: '/api/users/me', headers: auth })
    expect(me.json().user.name).toBe('Ada L.')
  })

  it('validates the name and needs a session', async () => {
    const { auth } = await signedIn()
    const short = await t.app.inject({
      method: 'PUT',
      url: '/api/users/me',
      headers: auth,
      payload: { name: 'A' },
    })
    expect(short.json()).toEqual({ message: MESSAGES.nameMin, code: 'VALIDATION_ERROR', key: 'nameMin' })
    const missing = await t.app.inject({ method: 'PUT', url: '/api/users/me', headers: auth, payload: {} })
    expect(missing.json().message).toBe(MESSAGES.required)
    const anon = await t.app.inject({ method: 'PUT', url: '/api/users/me', payload: { name: 'Ada' } })
    expect(anon.statusCode).toBe(401)
  })
})
