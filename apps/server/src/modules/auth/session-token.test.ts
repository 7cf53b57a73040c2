import { createSigner } from 'fast-jwt'
import { describe, expect, it } from 'vitest'
import { createSessionTokens } from './session-token'

const secret = 'x'.repeat(48)
const tokens = createSessionTokens(secret)
const payloadOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, number>

describe('session tokens', () => {
  it('round-trips the user id and session version, with a 1 day or 30 day expiry', () => {
    const short = tokens.issue({ userId: 'u1', sv: 3 })
    const long = tokens.issue({ userId: 'u1', sv: 3 }, true)
    expect(tokens.verify(short)).toEqual({ userId: 'u1', sv: 3 })
    expect(tokens.verify(long)).toEqual({ userId: 'u1', sv: 3 })
    const now = Date.now() / 1000
    expect(payloadOf(short).exp! - now).toBeGreaterThan(86_000)
    expect(payloadOf(short).exp! - now).toBeLessThanOrEqual(86_400)
    expect(payloadOf(long).exp! - now).toBeGreaterThan(29 * 86_400)
  })

  it('says an expired token has expired, and refuses a forged, unsigned or shapeless one', () => {
    const sign = createSigner({ key: secret, algorithm: 'HS256' })
    const expired = sign({ userId: 'u1', sv: 0, exp: Math.floor(Date.now() / 1000) - 10 })
    expect(() => tokens.verify(expired)).toThrow(expect.objectContaining({ code: 'TOKEN_EXPIRED' }))

    const forged = createSessionTokens('y'.repeat(48)).issue({ userId: 'u1', sv: 0 })
    const unsigned = createSigner({ algorithm: 'none' })({ userId: 'u1', sv: 0, exp: 2e9 })
    const noExpiry = sign({ userId: 'u1', sv: 0 })
    const noVersion = sign({ userId: 'u1', exp: 2e9 })
    for (const token of [forged, unsigned, noExpiry, noVersion, 'not.a.jwt', '']) {
      expect(() => tokens.verify(token), token).toThrow(expect.objectContaining({ code: 'UNAUTHORIZED' }))
    }
  })

  it('renews a session under a new version with the same expiry, a remembered one too; never a bad one', () => {
    for (const rememberMe of [false, true]) {
      const old = tokens.issue({ userId: 'u1', sv: 3 }, rememberMe)
      const renewed = tokens.renew(old, 4)
      expect(tokens.verify(renewed)).toEqual({ userId: 'u1', sv: 4 })
      expect(payloadOf(renewed).exp).toBe(payloadOf(old).exp)
    }
    const sign = createSigner({ key: secret, algorithm: 'HS256' })
    const expired = sign({ userId: 'u1', sv: 0, exp: Math.floor(Date.now() / 1000) - 10 })
    expect(() => tokens.renew(expired, 1)).toThrow(expect.objectContaining({ code: 'TOKEN_EXPIRED' }))
    const forged = createSessionTokens('y'.repeat(48)).issue({ userId: 'u1', sv: 0 })
    expect(() => tokens.renew(forged, 1)).toThrow(expect.objectContaining({ code: 'UNAUTHORIZED' }))
  })
})
