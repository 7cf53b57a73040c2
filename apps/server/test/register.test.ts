import { MESSAGES, messageKeyOf } from '@circles/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser, uniqueEmail } from './support/factories'
import { type TestApp, createTestApp } from './support/test-app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const register = (payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/users/register', payload: payload as object, headers })

describe('POST /api/users/register', () => {
  it('creates an unverified account, sends a verification email and signs nobody in', async () => {
    const email = uniqueEmail('reg')
    const res = await register({ name: 'Ada Lovelace', email: email.toUpperCase(), password: 'secret123' })
    expect(res.statusCode).toBe(201)
    expect(res.json()).toEqual({
      message: MESSAGES.registrationNeedsVerification,
      requiresVerification: true,
    })
    const [mail] = await t.emailsTo(email)
    expect(mail?.subject).toBe('Verify your email for Circles')
    expect(mail?.textBody).toMatch(/http:\/\/localhost:3000\/verify\?token=[0-9a-f]{64}/)
    expect(mail?.htmlBody).toContain('Ada Lovelace')
  })

  it('writes the email in German for a German browser or a German choice', async () => {
    const a = uniqueEmail('de')
    await register(
      { name: 'Grete', email: a, password: 'secret123' },
      { 'accept-language': 'de-DE,de;q=0.9' },
    )
    expect((await t.emailsTo(a))[0]?.subject).toMatch(/Bestätige/)
    const b = uniqueEmail('de')
    await register({ name: 'Grete', email: b, password: 'secret123', language: 'de' })
    expect((await t.emailsTo(b))[0]?.subject).toMatch(/Bestätige/)
  })

  it('answers USER_EXISTS for a taken email, whatever its case', async () => {
    const user = await createUser(t.database)
    const res = await register({ name: 'Other', email: user.email.toUpperCase(), password: 'secret123' })
    expect(res.statusCode).toBe(409)
    expect(res.json()).toEqual({ message: MESSAGES.userExists, code: 'USER_EXISTS', key: 'userExists' })
  })

  it.each([
    [{}, MESSAGES.required],
    [{ name: 'Ada', email: 'a@b.co' }, MESSAGES.required],
    [{ name: '   ', email: 'a@b.co', password: 'secret123' }, MESSAGES.required],
    [{ name: 'A', email: 'a@b.co', password: 'secret123' }, MESSAGES.nameMin],
    [{ name: 'Ada', email: 'not-an-email', password: 'secret123' }, MESSAGES.invalidEmail],
    [{ name: 'Ada', email: 'a@b.co', password: 'short' }, MESSAGES.passwordMin],
    [{ name: 42, email: 'a@b.co', password: 'secret123' }, MESSAGES.required],
  ])('rejects %j with the first validation message', async (payload, message) => {
    const res = await register(payload)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ message, code: 'VALIDATION_ERROR', key: messageKeyOf(message) })
  })

  it('answers INVALID_INVITATION for an unknown invitation token and creates nothing', async () => {
    const email = uniqueEmail('inv')
    const res = await register({
      name: 'Ada',
      email,
      password: 'secret123',
      invitationToken: 'ab'.repeat(32),
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: 'INVALID_INVITATION', message: MESSAGES.invalidInvitation })
    const again = await register({ name: 'Ada', email, password: 'secret123' })
    expect(again.statusCode).toBe(201)
  })

  it('never answers 500 to malformed requests', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/users/register',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": "Ada",',
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().code).toBe('INVALID_JSON')

    const huge = await register({ name: 'Ada', email: 'a@b.co', password: 'x'.repeat(200_000) })
    expect(huge.statusCode).toBe(413)
    expect(huge.json().code).toBe('PAYLOAD_TOO_LARGE')

    const text = await t.app.inject({
      method: 'POST',
      url: '/api/users/register',
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    })
    expect(text.statusCode).toBe(415)

    const array = await register([1, 2, 3])
    expect(array.statusCode).toBe(400)

    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/users/register',
      headers: { 'content-type': 'application/json' },
    })
    expect(empty.statusCode).toBe(400)
  })
})
