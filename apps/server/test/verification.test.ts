import { MESSAGES } from '@circles/shared'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { emailVerificationTokens } from '../src/db/schema'
import { hashToken } from '../src/lib/tokens'
import { uniqueEmail } from './support/factories'
import { type TestApp, createTestApp, tokenFromEmail } from './support/test-app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

async function registerAndGetToken(email = uniqueEmail('verify')) {
  await t.app.inject({
    method: 'POST',
    url: '/api/users/register',
    payload: { name: 'Ada', email, password: 'secret123' },
  })
  const [mail] = await t.emailsTo(email)
  return { email, token: tokenFromEmail(mail!.textBody, '/verify') }
}

const verify = (token: string, ip = '10.0.0.1') =>
  t.app.inject({ method: 'GET', url: `/api/users/verify/${token}`, remoteAddress: ip })

describe('GET /api/users/verify/:token', () => {
  it('verifies once, then answers "already verified", both with the address for the login; login works afterwards', async () => {
    const { email, token } = await registerAndGetToken()
    const first = await verify(token)
    expect(first.statusCode).toBe(200)
    expect(first.json()).toEqual({ verified: true, message: MESSAGES.emailVerified, email })
    const again = await verify(token)
    expect(again.json()).toEqual({ verified: true, message: MESSAGES.emailAlreadyVerified, email })
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/users/login',
      payload: { email, password: 'secret123' },
    })
    expect(login.statusCode).toBe(200)
  })

  it('stores only the hash of the token', async () => {
    const { token } = await registerAndGetToken()
    const rows = await t.database.db
      .select()
      .from(emailVerificationTokens)
      .where(eq(emailVerificationTokens.tokenHash, hashToken(token)))
    expect(rows).toHaveLength(1)
    const raw = await t.database.db
      .select()
      .from(emailVerificationTokens)
      .where(eq(emailVerificationTokens.tokenHash, token))
    expect(raw).toHaveLength(0)
  })

  it('answers 401 for an unknown or expired token', async () => {
    const unknown = await verify('f'.repeat(64))
    expect(unknown.statusCode).toBe(401)
    expect(unknown.json()).toMatchObject({ message: MESSAGES.verificationTokenInvalid, verified: false })

    const { token } = await registerAndGetToken()
    await t.database.db
      .update(emailVerificationTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailVerificationTokens.tokenHash, hashToken(token)))
    expect((await verify(token)).statusCode).toBe(401)
  })

  it('limits links that were not valid per address with the spec message; valid ones do not count', async () => {
    const ip = '10.9.9.9'
    for (let i = 0; i < 28; i++) expect((await verify('e'.repeat(64), ip)).statusCode).toBe(401)
    // Housemates verifying their accounts from the same router.
    for (let i = 0; i < 3; i++) {
      const { token } = await registerAndGetToken()
      expect((await verify(token, ip)).statusCode).toBe(200)
    }
    for (let i = 0; i < 2; i++) expect((await verify('e'.repeat(64), ip)).statusCode).toBe(401)
    const res = await verify('e'.repeat(64), ip)
    expect(res.statusCode).toBe(429)
    expect(res.json()).toMatchObject({ message: MESSAGES.tooManyVerifications, code: 'RATE_LIMITED' })
  })
})

describe('POST /api/users/resend-verification', () => {
  const resend = (payload: object, ip = '10.0.0.2') =>
    t.app.inject({ method: 'POST', url: '/api/users/resend-verification', payload, remoteAddress: ip })

  it('sends a fresh link that replaces the old one', async () => {
    const { email, token: old } = await registerAndGetToken()
    const res = await resend({ email })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ message: MESSAGES.verificationSent })
    const mails = await t.emailsTo(email)
    expect(mails).toHaveLength(2)
    const fresh = tokenFromEmail(mails[0]!.textBody, '/verify')
    expect(fresh).not.toBe(old)
    expect((await verify(old)).statusCode).toBe(401)
    expect((await verify(fresh)).json().message).toBe(MESSAGES.emailVerified)
  })

  it('answers the same for unknown and verified addresses, sending nothing', async () => {
    const nobody = uniqueEmail('nobody')
    expect((await resend({ email: nobody })).json()).toEqual({ message: MESSAGES.verificationSent })
    expect(await t.emailsTo(nobody)).toHaveLength(0)
  })

  it('needs an email', async () => {
    expect((await resend({})).json()).toEqual({
      message: MESSAGES.emailRequired,
      code: 'VALIDATION_ERROR',
      key: 'emailRequired',
    })
    expect((await resend({ email: 'nope' })).json().message).toBe(MESSAGES.invalidEmail)
  })

  it('answers 429 with retryAfter and a Retry-After header after 3 requests', async () => {
    const { email } = await registerAndGetToken()
    for (let i = 0; i < 3; i++) expect((await resend({ email }, `10.3.0.${i}`)).statusCode).toBe(200)
    const res = await resend({ email }, '10.3.1.1')
    expect(res.statusCode).toBe(429)
    const body = res.json()
    expect(body).toMatchObject({ message: MESSAGES.tooManyVerificationRequests, code: 'RATE_LIMITED' })
    expect(body.retryAfter).toBeGreaterThan(0)
    expect(body.retryAfter).toBeLessThanOrEqual(15 * 60)
    expect(res.headers['retry-after']).toBe(String(body.retryAfter))
  })
})
