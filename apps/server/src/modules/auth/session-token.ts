import { LIMITS, MESSAGES } from '@circles/shared'
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose'
import { AppError, unauthorized } from '../../lib/errors'

const ALG = 'HS256'

export interface SessionClaims {
  userId: string
  /** The user's session version when the token was issued; a password reset bumps it. */
  sv: number
}

export function issueSessionToken(
  key: Uint8Array,
  claims: SessionClaims,
  rememberMe = false,
): Promise<string> {
  const ttl = rememberMe ? LIMITS.rememberMeTtlSeconds : LIMITS.sessionTtlSeconds
  return new SignJWT({ userId: claims.userId, sv: claims.sv })
    .setProtectedHeader({ alg: ALG })
    .setSubject(claims.userId)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttl)
    .sign(key)
}

/** Verifies signature and expiry; an expired token says so, anything else is plain 401. */
export async function verifySessionToken(key: Uint8Array, token: string): Promise<SessionClaims> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: [ALG] })
    if (typeof payload.userId !== 'string' || typeof payload.sv !== 'number') throw unauthorized()
    return { userId: payload.userId, sv: payload.sv }
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw new AppError('TOKEN_EXPIRED', MESSAGES.tokenExpired)
    throw unauthorized()
  }
}
