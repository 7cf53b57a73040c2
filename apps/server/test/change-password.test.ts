import { MESSAGES, messageKeyOf } from '@circles/shared'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { users } from '../src/db/schema'
import { createSessionTokens } from '../src/modules/auth/session-token'
import { type SignedIn, signedIn } from './support/circles'
import { connectAs, listen, refusedConnection, tokenOf } from './support/sockets'
import { TEST_JWT_SECRET, type TestApp, createTestApp } from './support/test-app'

let t: TestApp
let url: string
beforeAll(async () => {
  t = await createTestApp()
  url = await listen(t)
})
afterAll(() => t.close())

const NEW_PASSWORD = 'a brand new password'

const change = (authorization: string, payload: object, ip = '10.9.0.1') =>
  t.app.inject({
    method: 'PUT',
    url: '/api/users/me/password',
    headers: { authorization },
    payload,
    remoteAddress: ip,
  })
const changeAs = (who: SignedIn, payload: object, ip?: string) => change(who.auth.authorization, payload, ip)
const valid = (who: SignedIn, newPassword = NEW_PASSWORD) => ({
  currentPassword: who.user.password,
  newPassword,
  confirmPassword: newPassword,
})
const me = (authorization: string) =>
  t.app.inject({ method: 'GET', url: '/api/users/me', headers: { authorization } })
const login = (email: string, password: string, ip = '10.9.9.9') =>
  t.app.inject({
    method: 'POST',
    url: '/api/users/login',
    payload: { email, password },
    remoteAddress: ip,
  })
const tokens = createSessionTokens(TEST_JWT_SECRET)
const expOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')).exp as number

/** A second session of the same user, as a sign-in on another device gets. */
async function otherSession(who: SignedIn) {
  const res = await login(who.user.email, who.user.password, '10.9.8.8')
  expect(res.statusCode).toBe(200)
  return `Bearer ${res.json().token as string}`
}

describe('PUT /api/users/me/password', () => {
  it('changes the password, ends every other session and keeps this one with a new token', async () => {
    const ada = await signedIn(t, { name: 'Ada' })
    const other = await otherSession(ada)
    const socket = await connectAs(url, tokenOf(ada))
    const closed = new Promise((resolve) => socket.socket.once('disconnect', resolve))

    const res = await changeAs(ada, valid(ada))
    expect(res.statusCode).toBe(200)
    const body = res.json<{ message: string; token: string }>()
    expect(body.message).toBe(MESSAGES.passwordChanged)

    // The other session's next request is refused; so is this tab's old token, and its socket closed.
    expect((await me(other)).statusCode).toBe(401)
    expect((await me(ada.auth.authorization)).statusCode).toBe(401)
    expect(await closed).toBe('io server disconnect')
    expect(await refusedConnection(url, tokenOf(ada))).toBe('Unauthorized')
    // This session goes on with the new token, which expires when the old one would have.
    const renewed = `Bearer ${body.token}`
    expect((await me(renewed)).json().user.id).toBe(ada.user.id)
    expect(expOf(body.token)).toBe(expOf(tokenOf(ada)))
    expect(tokens.verify(body.token).sv).toBe(ada.user.sessionVersion + 1)
    ;(await connectAs(url, body.token)).close()

    // The new password signs in, the old one no longer does.
    expect((await login(ada.user.email, NEW_PASSWORD)).statusCode).toBe(200)
    expect((await login(ada.user.email, ada.user.password)).statusCode).toBe(401)
  })

  it('queues the security notice in the user language, with no secret in it', async () => {
    const de = await signedIn(t, { name: 'Grete', language: 'de' })
    const en = await signedIn(t, { name: 'Alan' })
    expect((await changeAs(de, valid(de))).statusCode).toBe(200)
    expect((await changeAs(en, valid(en))).statusCode).toBe(200)
    const [german] = await t.emailsTo(de.user.email)
    const [english] = await t.emailsTo(en.user.email)
    expect(german?.subject).toBe('Dein Circles-Passwort wurde geändert')
    expect(english?.subject).toBe('Your Circles password was changed')
    expect(english?.textBody).toContain('http://localhost:3000/forgot-password')
    for (const [mail, who] of [
      [german, de],
      [english, en],
    ] as const) {
      expect(mail?.kind).toBe('password-changed')
      for (const part of [mail?.textBody, mail?.htmlBody]) {
        expect(part).not.toContain(NEW_PASSWORD)
        expect(part).not.toContain(who.user.password)
        expect(part).not.toMatch(/token=|eyJ/)
      }
    }
  })

  it('the notice goes out even with every notice switched off', async () => {
    const ada = await signedIn(t)
    const off = { handoverRequests: false, handoverAnswers: false, invitations: false }
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/users/me/notifications',
      headers: ada.auth,
      payload: off,
    })
    expect(put.statusCode).toBe(200)
    expect((await changeAs(ada, valid(ada))).statusCode).toBe(200)
    expect((await t.emailsTo(ada.user.email)).map((m) => m.kind)).toEqual(['password-changed'])
  })

  it('refuses a wrong current password without ending the session or changing anything', async () => {
    const ada = await signedIn(t)
    const res = await changeAs(ada, { ...valid(ada), currentPassword: 'not my password' })
    // 400, not 401: a wrong password is not an ended session, and the web app must not sign out.
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({
      message: MESSAGES.currentPasswordWrong,
      code: 'VALIDATION_ERROR',
      key: 'currentPasswordWrong',
      field: 'currentPassword',
    })
    expect((await me(ada.auth.authorization)).statusCode).toBe(200)
    expect((await login(ada.user.email, ada.user.password)).statusCode).toBe(200)
    expect(await t.emailsTo(ada.user.email)).toHaveLength(0)
  })

  it('checks the fields in order: current, both new, length, match, different', async () => {
    const ada = await signedIn(t)
    const current = ada.user.password
    const cases: [object, string][] = [
      [{ newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }, MESSAGES.currentPasswordRequired],
      [{ currentPassword: '', newPassword: 'short' }, MESSAGES.currentPasswordRequired],
      [{ currentPassword: 42, newPassword: NEW_PASSWORD }, MESSAGES.currentPasswordRequired],
      [{ currentPassword: current, newPassword: NEW_PASSWORD }, MESSAGES.resetBothRequired],
      [{ currentPassword: current, newPassword: '', confirmPassword: 'x' }, MESSAGES.resetBothRequired],
      [
        { currentPassword: current, newPassword: 'short', confirmPassword: 'short' },
        MESSAGES.resetPasswordMin,
      ],
      [
        { currentPassword: current, newPassword: 'x'.repeat(257), confirmPassword: 'x'.repeat(257) },
        MESSAGES.resetPasswordMin,
      ],
      [
        { currentPassword: current, newPassword: 'abc\u0000defgh', confirmPassword: 'abc\u0000defgh' },
        MESSAGES.invalidCharacters,
      ],
      [
        { currentPassword: current, newPassword: NEW_PASSWORD, confirmPassword: `${NEW_PASSWORD}!` },
        MESSAGES.resetPasswordsDoNotMatch,
      ],
      [
        { currentPassword: current, newPassword: current, confirmPassword: current },
        MESSAGES.passwordSameAsCurrent,
      ],
    ]
    for (const [payload, message] of cases) {
      const res = await changeAs(ada, payload)
      expect(res.statusCode, JSON.stringify(payload)).toBe(400)
      expect(res.json()).toEqual({ message, code: 'VALIDATION_ERROR', key: messageKeyOf(message) })
    }
    // None of them changed anything.
    expect((await me(ada.auth.authorization)).statusCode).toBe(200)
    expect(await t.emailsTo(ada.user.email)).toHaveLength(0)
  })

  it('needs a session', async () => {
    const ada = await signedIn(t)
    const res = await t.app.inject({ method: 'PUT', url: '/api/users/me/password', payload: valid(ada) })
    expect(res.statusCode).toBe(401)
  })

  it('limits guessing like sign-in, per account and address, without locking the owner out', async () => {
    const ada = await signedIn(t)
    const guess = (ip: string) => changeAs(ada, { ...valid(ada), currentPassword: 'a wrong guess' }, ip)
    // Five free failures, the sixth starts a wait, the seventh must wait.
    for (let i = 0; i < 6; i++) expect((await guess('10.9.1.1')).statusCode).toBe(400)
    const refused = await guess('10.9.1.1')
    expect(refused.statusCode).toBe(429)
    expect(refused.json().key).toBe('tooManyRequests')
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    // The same budget as sign-in: that pair's sign-in waits too.
    expect((await login(ada.user.email, ada.user.password, '10.9.1.1')).statusCode).toBe(429)
    // The session keeps working, and the owner from another address changes it at once.
    expect((await me(ada.auth.authorization)).statusCode).toBe(200)
    expect((await changeAs(ada, valid(ada), '10.9.2.2')).statusCode).toBe(200)
  })

  it('two changes at once from the same session: one wins, the other finds its session ended', async () => {
    const ada = await signedIn(t)
    const [a, b] = await Promise.all([
      changeAs(ada, valid(ada, 'first new password')),
      changeAs(ada, valid(ada, 'second new password')),
    ])
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 401])
    const winner = a.statusCode === 200 ? 'first new password' : 'second new password'
    expect((await login(ada.user.email, winner)).statusCode).toBe(200)
    const [row] = await t.database.db.select().from(users).where(eq(users.id, ada.user.id))
    expect(row?.sessionVersion).toBe(ada.user.sessionVersion + 1)
    expect(await t.emailsTo(ada.user.email)).toHaveLength(1)
  })

  it('an account without a password says so', async () => {
    const ada = await signedIn(t)
    await t.database.db.update(users).set({ passwordHash: '' }).where(eq(users.id, ada.user.id))
    const res = await changeAs(ada, valid(ada))
    expect(res.statusCode).toBe(400)
    expect(res.json().key).toBe('noPasswordToChange')
  })
})
