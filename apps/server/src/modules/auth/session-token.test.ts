import { SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { issueSessionToken, verifySessionToken } from './session-token'

const key = new TextEncoder().encode('x'.repeat(48))

describe('session tokens', () => {
  it('round-trips the user id and session version, with a 1 day or 30 day expiry', async () => {
    const short = await issueSessionToken(key, { userId: 'u1', sv: 3 })
    const long = await issueSessionToken(key, { userId: 'u1', sv: 3 }, true)
    expect(await verifySessionToken(key, short)).toEqual({ userId: 'u1', sv: 3 })
    const exp = (t: string) => JSON.parse(Buffer.from(t.split('.')[1]!, 'base64url').toString()).exp as number
    const now = Date.now() / 1000
    expect(exp(short) - now).toBeGreaterThan(86_000)
    expect(exp(short) - now).toBeLessThanOrEqual(86_400)
    expect(exp(long) - now).toBeGreaterThan(29 * 86_400)
  })

  it('says an expired token has expired, and refuses a forged one', async () => {
    const expired = await new SignJWT({ userId: 'u1', sv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
      .sign(key)
    await expect(verifySessionToken(key, expired)).rejects.toMatchObject({ code: 'TOKEN_EXPIRED' })
    const forged = await issueSessionToken(new TextEncoder().encode('y'.repeat(48)), { userId: 'u1', sv: 0 })
    await expect(verifySessionToken(key, forged)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    await expect(verifySessionToken(key, 'not.a.jwt')).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
  })
})
