import { LIMITS, MESSAGES } from '@circles/shared'
import { createSigner, createVerifier, TokenError } from 'fast-jwt'
import { AppError, unauthorized } from '../../lib/errors'

const ALGORITHM = 'HS256'

export interface SessionClaims {
  userId: string
  /** The user's session version when the token was issued; a password reset bumps it. */
  sv: number
}

export interface SessionTokens {
  /** A signed session token for 1 day, or 30 days with "remember me". */
  issue(claims: SessionClaims, rememberMe?: boolean): string
  /** Verifies signature and expiry; an expired token says so, anything else is plain 401. */
  verify(token: string): SessionClaims
  /**
   * The same session under a new session version (a password change): a token for `token`'s user that
   * expires when `token` does. `token` must verify.
   */
  renew(token: string, sv: number): string
}

/**
 * Session tokens (HS256 JWTs) signed with one secret, through fast-jwt: its signers and verifier are
 * built once here and run synchronously on node:crypto's HMAC, so verifying the token of every API
 * request costs microseconds and never leaves the main thread (docs/decisions/0012).
 */
export function createSessionTokens(secret: string): SessionTokens {
  const key = Buffer.from(secret, 'utf8')
  const signers = {
    session: createSigner({ key, algorithm: ALGORITHM, expiresIn: LIMITS.sessionTtlSeconds * 1000 }),
    remembered: createSigner({ key, algorithm: ALGORITHM, expiresIn: LIMITS.rememberMeTtlSeconds * 1000 }),
  }
  const verifier = createVerifier({ key, algorithms: [ALGORITHM], requiredClaims: ['exp'] })
  // For renewals: the expiry comes from the token renewed, not from now.
  const renewer = createSigner({ key, algorithm: ALGORITHM })

  function verifiedPayload(token: string) {
    let payload: Record<string, unknown>
    try {
      payload = verifier(token) as Record<string, unknown>
    } catch (error) {
      if (error instanceof TokenError && error.code === TokenError.codes.expired) {
        throw new AppError('TOKEN_EXPIRED', MESSAGES.tokenExpired)
      }
      throw unauthorized()
    }
    const { userId, sv, exp } = payload
    if (typeof userId !== 'string' || typeof sv !== 'number' || typeof exp !== 'number') throw unauthorized()
    return { userId, sv, exp }
  }

  return {
    issue(claims, rememberMe = false) {
      const sign = rememberMe ? signers.remembered : signers.session
      return sign({ userId: claims.userId, sv: claims.sv, sub: claims.userId })
    },
    verify(token) {
      const payload = verifiedPayload(token)
      return { userId: payload.userId, sv: payload.sv }
    },
    renew(token, sv) {
      const { userId, exp } = verifiedPayload(token)
      return renewer({ userId, sv, sub: userId, exp })
    },
  }
}
