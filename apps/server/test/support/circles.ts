import type { TCircle } from '@circles/shared'
import type { Language } from '@circles/shared'
import { createSessionTokens } from '../../src/modules/auth/session-token'
import { createUser } from './factories'
import { TEST_JWT_SECRET, type TestApp } from './test-app'

export interface SignedIn {
  user: Awaited<ReturnType<typeof createUser>>
  auth: { authorization: string }
}

/** A verified user with a session token, without a login round trip. */
export async function signedIn(
  t: TestApp,
  opts: { name?: string; email?: string; language?: Language } = {},
): Promise<SignedIn> {
  const user = await createUser(t.database, opts)
  const token = createSessionTokens(TEST_JWT_SECRET).issue({ userId: user.id, sv: user.sessionVersion })
  return { user, auth: { authorization: `Bearer ${token}` } }
}

export async function createCircle(
  t: TestApp,
  admin: SignedIn,
  body: { name?: string; description?: string } = {},
): Promise<TCircle> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/circles',
    headers: admin.auth,
    payload: { name: 'Makerspace', description: 'Tools we share', ...body },
  })
  if (res.statusCode !== 201) throw new Error(`create circle: ${res.statusCode} ${res.body}`)
  return res.json().circle
}

/** A QR invitation for the member's email, accepted by them: the quickest real way in. */
export async function qrInvitation(t: TestApp, admin: SignedIn, circleId: string, email: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/circles/${circleId}/invitations/qr`,
    headers: admin.auth,
    payload: { email },
  })
  if (res.statusCode !== 201) throw new Error(`qr invitation: ${res.statusCode} ${res.body}`)
  return res.json().invitation as { id: string; token: string; email: string }
}

export async function addMember(t: TestApp, admin: SignedIn, circleId: string, member: SignedIn) {
  const { token } = await qrInvitation(t, admin, circleId, member.user.email)
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/circles/invitations/${token}`,
    headers: member.auth,
  })
  if (res.statusCode !== 200) throw new Error(`accept: ${res.statusCode} ${res.body}`)
}
