import type { TUser } from '@circles/shared'

function base64Url(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value))
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}

/** An unsigned JWT-shaped token; the client only reads claims, it never verifies signatures. */
export function makeToken(payload: Record<string, unknown>): string {
  return `${base64Url({ alg: 'HS256', typ: 'JWT' })}.${base64Url(payload)}.signature`
}

const nowSeconds = () => Math.floor(Date.now() / 1000)
export const validToken = (extra: Record<string, unknown> = {}) =>
  makeToken({ sub: testUser.id, exp: nowSeconds() + 3600, ...extra })
export const expiredToken = () => makeToken({ sub: testUser.id, exp: nowSeconds() - 60 })

export const testUser: TUser = {
  id: '8d0c7a52-4a55-4f2e-9a0f-2f7c0d1b6e11',
  name: 'Anna Keller',
  email: 'anna@example.com',
  emailVerified: true,
  language: 'en',
  createdAt: '2025-01-01T00:00:00.000Z',
}

/** Puts a session into localStorage the way a previous visit would have left it. */
export function seedStoredSession(token: string, user: TUser = testUser): void {
  localStorage.setItem('token', token)
  localStorage.setItem('user', JSON.stringify(user))
  localStorage.setItem('userId', user.id)
}
