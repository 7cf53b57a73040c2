import { MESSAGES, messageKeyOf } from '@circles/shared'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { passwordResetTokens } from '../src/db/schema'
import { hashToken } from '../src/lib/tokens'
import { createUser, uniqueEmail } from './support/factories'
import { type TestApp, createTestApp, tokenFromEmail } from './support/test-app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const requestReset = (payload: object, ip = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/users/request-password-reset', payload, remoteAddress: ip })
const reset = (payload: object) => t.app.inject({ method: 'POST', url: '/api/users/reset-password', payload })
const checkToken = (token: string) =>
  t.app.inject({ method: 'GET', url: `/api/users/verify-reset-token/${token}` })
const login = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/users/login', payload: { email, password } })

async function userWithResetToken() {
  const user = await createUser(t.database)
  await requestReset({ email: user.email })
  const [mail] = await t.emailsTo(user.email)
  return { user, token: tokenFromEmail(mail!.textBody, '/reset-password') }
}

describe('password reset', () => {
  it('answers the same whether the email exists or not', async () => {
    const user = await createUser(t.database)
    const known = await requestReset({ email: user.email })
    const nobody = uniqueEmail('nobody')
    const unknown = await requestReset({ email: nobody })
    expect(known.statusCode).toBe(200)
    expect(unknown.statusCode).toBe(200)
    expect(known.json()).toEqual(unknown.json())
    expect(known.json()).toEqual({ message: MESSAGES.resetRequested })
    expect((await t.emailsTo(user.email))[0]?.textBody).toMatch(/\/reset-password\?token=[0-9a-f]{64}/)
    expect(await t.emailsTo(nobody)).toHaveLength(0)
  })

  it('validates the request: required, then the pattern', async () => {
    expect((await requestReset({})).json()).toEqual({
      message: MESSAGES.emailRequired,
      code: 'VALIDATION_ERROR',
      key: 'emailRequired',
    })
    expect((await requestReset({ email: '' })).json().message).toBe(MESSAGES.emailRequired)
    expect((await requestReset({ email: 'a@b' })).json().message).toBe(MESSAGES.invalidEmail)
  })

  it('checks a token on load: valid, then invalid once used', async () => {
    const { user, token } = await userWithResetToken()
    expect((await checkToken(token)).json()).toEqual({ valid: true })
    const done = await reset({ token, newPassword: 'brand new pass', confirmPassword: 'brand new pass' })
    expect(done.statusCode).toBe(200)
    expect(done.json()).toEqual({ message: MESSAGES.resetSuccess })
    const again = await checkToken(token)
    expect(again.statusCode).toBe(401)
    expect(again.json()).toEqual({
      message: MESSAGES.resetLinkInvalid,
      code: 'INVALID_TOKEN',
      key: 'resetLinkInvalid',
    })
    const reuse = await reset({ token, newPassword: 'another pass', confirmPassword: 'another pass' })
    expect(reuse.statusCode).toBe(401)
    expect((await login(user.email, 'brand new pass')).statusCode).toBe(200)
    expect((await login(user.email, user.password)).statusCode).toBe(401)
  })

  it('ends every earlier session of that user', async () => {
    const { user, token } = await userWithResetToken()
    const session = (await login(user.email, user.password)).json().token
    const me = () =>
      t.app.inject({ method: 'GET', url: '/api/users/me', headers: { authorization: `Bearer ${session}` } })
    expect((await me()).statusCode).toBe(200)
    await reset({ token, newPassword: 'brand new pass', confirmPassword: 'brand new pass' })
    expect((await me()).statusCode).toBe(401)
  })

  it('refuses an expired link', async () => {
    const { token } = await userWithResetToken()
    await t.database.db
      .update(passwordResetTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResetTokens.tokenHash, hashToken(token)))
    expect((await checkToken(token)).statusCode).toBe(401)
    expect(
      (await reset({ token, newPassword: 'brand new pass', confirmPassword: 'brand new pass' })).statusCode,
    ).toBe(401)
  })

  it('checks the fields in the spec order', async () => {
    const cases: [object, string][] = [
      [{ token: 'x', newPassword: '', confirmPassword: 'abcdefgh' }, MESSAGES.resetBothRequired],
      [{ token: 'x', newPassword: 'abcdefgh' }, MESSAGES.resetBothRequired],
      [{ newPassword: 'short', confirmPassword: 'other' }, MESSAGES.resetPasswordMin],
      [{ newPassword: 'abcdefgh', confirmPassword: 'abcdefgX' }, MESSAGES.resetPasswordsDoNotMatch],
      [{ newPassword: 'abcdefgh', confirmPassword: 'abcdefgh' }, MESSAGES.resetTokenInvalid],
      [{ token: '', newPassword: 'abcdefgh', confirmPassword: 'abcdefgh' }, MESSAGES.resetTokenInvalid],
    ]
    for (const [payload, message] of cases) {
      const res = await reset(payload)
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ message, code: 'VALIDATION_ERROR', key: messageKeyOf(message) })
    }
    const bogus = await reset({ token: 'a'.repeat(64), newPassword: 'abcdefgh', confirmPassword: 'abcdefgh' })
    expect(bogus.statusCode).toBe(401)
  })

  it('a new request replaces the earlier link', async () => {
    const { user, token: first } = await userWithResetToken()
    await requestReset({ email: user.email })
    expect((await checkToken(first)).statusCode).toBe(401)
  })

  it('limits requests per email', async () => {
    const user = await createUser(t.database)
    for (let i = 0; i < 3; i++)
      expect((await requestReset({ email: user.email }, `10.4.0.${i}`)).statusCode).toBe(200)
    const res = await requestReset({ email: user.email }, '10.4.1.1')
    expect(res.statusCode).toBe(429)
    expect(res.headers['retry-after']).toBeDefined()
  })
})
