import { MESSAGES } from '@circles/shared'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { invitations } from '../src/db/schema'
import { hashToken } from '../src/lib/tokens'
import { type SignedIn, addMember, createCircle, qrInvitation, signedIn } from './support/circles'
import { uniqueEmail } from './support/factories'
import { TEST_PUBLIC_URL, type TestApp, createTestApp, tokenFromEmail } from './support/test-app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

function call(method: 'GET' | 'POST' | 'DELETE', url: string, who?: SignedIn, payload?: object) {
  return t.app.inject({ method, url, headers: who?.auth, ...(payload && { payload }) })
}

async function adminWithCircle() {
  const admin = await signedIn(t, { name: 'Ada Admin' })
  const circle = await createCircle(t, admin, { name: 'Makerspace' })
  return { admin, circle }
}

async function inviteByEmail(admin: SignedIn, circleId: string, email: string) {
  const res = await call('POST', `/api/circles/${circleId}/users`, admin, { email })
  expect(res.statusCode).toBe(201)
  const [mail] = await t.emailsTo(email.toLowerCase())
  if (!mail) throw new Error('no invitation email')
  return { invitation: res.json().invitation, mail, token: tokenFromEmail(mail.textBody, '/join') }
}

async function expire(invitationId: string) {
  await t.database.db
    .update(invitations)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(eq(invitations.id, invitationId))
}

describe('invite by email: POST /api/circles/:id/users', () => {
  it('sends a localized email with PUBLIC_URL/join?token= and stores only the hash', async () => {
    const { admin, circle } = await adminWithCircle()
    const email = uniqueEmail('Invitee').toUpperCase()
    const { invitation, mail, token } = await inviteByEmail(admin, circle.id, email)
    expect(invitation).toMatchObject({ email: email.toLowerCase(), type: 'email', status: 'PENDING' })
    expect(new Date(invitation.expiresAt).getTime() - Date.now()).toBeGreaterThan(6.99 * 86_400_000)
    expect(mail.subject).toBe('Ada Admin invited you to Makerspace on Circles')
    expect(mail.textBody).toContain(`${TEST_PUBLIC_URL}/join?token=${token}`)
    expect(token).toMatch(/^[0-9a-f]{64}$/)

    const [row] = await t.database.db.select().from(invitations).where(eq(invitations.id, invitation.id))
    expect(row?.tokenHash).toBe(hashToken(token))
    expect(JSON.stringify(row)).not.toContain(token)
  })

  it('writes to an existing German user in German', async () => {
    const { admin, circle } = await adminWithCircle()
    const german = await signedIn(t, { language: 'de' })
    const { mail } = await inviteByEmail(admin, circle.id, german.user.email)
    expect(mail.subject).toBe('Ada Admin hat dich zu Makerspace bei Circles eingeladen')
  })

  it('replaces an earlier pending invitation for the same address', async () => {
    const { admin, circle } = await adminWithCircle()
    const email = uniqueEmail('twice')
    const first = await inviteByEmail(admin, circle.id, email)
    const second = await inviteByEmail(admin, circle.id, email)
    expect(second.token).not.toBe(first.token)
    const pending = (await call('GET', `/api/circles/${circle.id}/invitations`, admin)).json().invitations
    expect(pending.map((i: { id: string }) => i.id)).toEqual([second.invitation.id])
    expect((await call('GET', `/api/circles/invitations/${first.token}/verify`)).statusCode).toBe(404)
  })

  it.each([
    [{}, MESSAGES.emailRequired],
    [{ email: '' }, MESSAGES.emailRequired],
    [{ email: 'not-an-email' }, MESSAGES.invalidEmail],
  ])('refuses %j', async (payload, message) => {
    const { admin, circle } = await adminWithCircle()
    const res = await call('POST', `/api/circles/${circle.id}/users`, admin, payload)
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe(message)
  })

  it('refuses an existing member, a member (403) and an outsider (404)', async () => {
    const { admin, circle } = await adminWithCircle()
    const member = await signedIn(t)
    const outsider = await signedIn(t)
    await addMember(t, admin, circle.id, member)
    const existing = await call('POST', `/api/circles/${circle.id}/users`, admin, {
      email: member.user.email,
    })
    expect(existing.statusCode).toBe(409)
    expect(existing.json()).toEqual({
      message: MESSAGES.alreadyMember,
      code: 'ALREADY_MEMBER',
      key: 'alreadyMember',
    })
    const url = `/api/circles/${circle.id}/users`
    expect((await call('POST', url, member, { email: uniqueEmail() })).statusCode).toBe(403)
    expect((await call('POST', url, outsider, { email: uniqueEmail() })).statusCode).toBe(404)
    expect((await call('POST', url, undefined, { email: uniqueEmail() })).statusCode).toBe(401)
  })
})

describe('QR invitations: POST /api/circles/:id/invitations/qr', () => {
  it('returns the token once, bound to the email, and sends nothing', async () => {
    const { admin, circle } = await adminWithCircle()
    const email = uniqueEmail('qr')
    const invitation = await qrInvitation(t, admin, circle.id, email)
    expect(invitation).toMatchObject({
      email,
      type: 'qr',
      status: 'PENDING',
      token: expect.stringMatching(/^[0-9a-f]{64}$/),
    })
    expect(await t.emailsTo(email)).toHaveLength(0)
    const list = (await call('GET', `/api/circles/${circle.id}/invitations`, admin)).json().invitations
    expect(list).toEqual([expect.objectContaining({ id: invitation.id, type: 'qr' })])
    expect(list[0]).not.toHaveProperty('token')
  })

  it('needs an email', async () => {
    const { admin, circle } = await adminWithCircle()
    const res = await call('POST', `/api/circles/${circle.id}/invitations/qr`, admin, { email: '' })
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe(MESSAGES.emailRequired)
  })
})

describe('pending invitations: list, resend, cancel', () => {
  it('is for the admin only', async () => {
    const { admin, circle } = await adminWithCircle()
    const member = await signedIn(t)
    const outsider = await signedIn(t)
    await addMember(t, admin, circle.id, member)
    const { invitation } = await inviteByEmail(admin, circle.id, uniqueEmail())
    const base = `/api/circles/${circle.id}/invitations`
    for (const who of [member, outsider]) {
      const expected = who === member ? 403 : 404
      expect((await call('GET', base, who)).statusCode).toBe(expected)
      expect((await call('POST', `${base}/${invitation.id}/resend`, who)).statusCode).toBe(expected)
      expect((await call('DELETE', `${base}/${invitation.id}`, who)).statusCode).toBe(expected)
    }
  })

  it('resend issues a fresh token by email; the old link stops working', async () => {
    const { admin, circle } = await adminWithCircle()
    const email = uniqueEmail('resend')
    const first = await inviteByEmail(admin, circle.id, email)
    const res = await call(
      'POST',
      `/api/circles/${circle.id}/invitations/${first.invitation.id}/resend`,
      admin,
    )
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({
      invitation: { id: first.invitation.id },
      message: MESSAGES.invitationResent,
    })
    const mails = await t.emailsTo(email)
    expect(mails).toHaveLength(2)
    const fresh = tokenFromEmail(mails[0]!.textBody, '/join')
    expect(fresh).not.toBe(first.token)
    expect((await call('GET', `/api/circles/invitations/${first.token}/verify`)).statusCode).toBe(404)
    expect((await call('GET', `/api/circles/invitations/${fresh}/verify`)).statusCode).toBe(200)
  })

  it('resend renews an expired invitation', async () => {
    const { admin, circle } = await adminWithCircle()
    const { invitation } = await inviteByEmail(admin, circle.id, uniqueEmail())
    await expire(invitation.id)
    expect((await call('GET', `/api/circles/${circle.id}/invitations`, admin)).json().invitations).toEqual([])
    const res = await call('POST', `/api/circles/${circle.id}/invitations/${invitation.id}/resend`, admin)
    expect(res.json().invitation.status).toBe('PENDING')
  })

  it('cancel ends the invitation; the link then fails and it leaves the list', async () => {
    const { admin, circle } = await adminWithCircle()
    const { invitation, token } = await inviteByEmail(admin, circle.id, uniqueEmail())
    const res = await call('DELETE', `/api/circles/${circle.id}/invitations/${invitation.id}`, admin)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ message: MESSAGES.invitationCancelled })
    expect((await call('GET', `/api/circles/${circle.id}/invitations`, admin)).json().invitations).toEqual([])
    const verify = await call('GET', `/api/circles/invitations/${token}/verify`)
    expect(verify.statusCode).toBe(404)
    expect(verify.json().message).toBe(MESSAGES.invitationNotFound)
    // Already cancelled, or belonging to another circle: not found.
    expect(
      (await call('DELETE', `/api/circles/${circle.id}/invitations/${invitation.id}`, admin)).statusCode,
    ).toBe(404)
    const other = await createCircle(t, admin, { name: 'Other' })
    expect(
      (await call('DELETE', `/api/circles/${other.id}/invitations/${invitation.id}`, admin)).statusCode,
    ).toBe(404)
  })
})

describe('verify and accept: /api/circles/invitations/:token', () => {
  it('previews the invitation without a session', async () => {
    const { admin, circle } = await adminWithCircle()
    const email = uniqueEmail()
    const { token, invitation } = await inviteByEmail(admin, circle.id, email)
    const res = await call('GET', `/api/circles/invitations/${token}/verify`)
    expect(res.statusCode).toBe(200)
    expect(res.json().invitation).toMatchObject({
      id: invitation.id,
      email,
      status: 'PENDING',
      circleId: circle.id,
      circleName: 'Makerspace',
      name: 'Ada Admin',
    })
  })

  it('accepting adds the membership once; a repeat answers alreadyMember', async () => {
    const { admin, circle } = await adminWithCircle()
    const invitee = await signedIn(t)
    const { token } = await inviteByEmail(admin, circle.id, invitee.user.email)
    const first = await call('POST', `/api/circles/invitations/${token}`, invitee)
    expect(first.statusCode).toBe(200)
    expect(first.json()).toEqual({
      success: true,
      circle: { id: circle.id, name: 'Makerspace' },
      alreadyMember: false,
      message: MESSAGES.joinedCircle,
    })
    const again = await call('POST', `/api/circles/invitations/${token}`, invitee)
    expect(again.json()).toMatchObject({
      success: true,
      alreadyMember: true,
      message: MESSAGES.alreadyMemberWelcome,
    })
    expect((await call('GET', `/api/circles/${circle.id}`, invitee)).json().circle.users).toHaveLength(2)
    expect((await call('GET', `/api/circles/invitations/${token}/verify`)).json().invitation.status).toBe(
      'ACCEPTED',
    )
  })

  it('lets a signed-in user with another email accept; then nobody else can', async () => {
    const { admin, circle } = await adminWithCircle()
    const { token } = await inviteByEmail(admin, circle.id, uniqueEmail('meant-for'))
    const someoneElse = await signedIn(t)
    expect((await call('POST', `/api/circles/invitations/${token}`, someoneElse)).json().alreadyMember).toBe(
      false,
    )
    const third = await signedIn(t)
    const late = await call('POST', `/api/circles/invitations/${token}`, third)
    expect(late.statusCode).toBe(409)
    expect(late.json()).toEqual({
      message: MESSAGES.invitationAlreadyAccepted,
      code: 'INVITATION_ACCEPTED',
      key: 'invitationAlreadyAccepted',
    })
  })

  it('refuses expired, cancelled and unknown tokens with the spec texts', async () => {
    const { admin, circle } = await adminWithCircle()
    const invitee = await signedIn(t)
    const { token, invitation } = await inviteByEmail(admin, circle.id, invitee.user.email)
    await expire(invitation.id)
    for (const res of [
      await call('GET', `/api/circles/invitations/${token}/verify`),
      await call('POST', `/api/circles/invitations/${token}`, invitee),
    ]) {
      expect(res.statusCode).toBe(410)
      expect(res.json()).toEqual({
        message: MESSAGES.invitationExpired,
        code: 'INVITATION_EXPIRED',
        key: 'invitationExpired',
      })
    }
    const unknown = 'ab'.repeat(32)
    expect((await call('GET', `/api/circles/invitations/${unknown}/verify`)).json().message).toBe(
      MESSAGES.invitationNotFound,
    )
    expect((await call('POST', `/api/circles/invitations/${unknown}`, invitee)).statusCode).toBe(404)
    expect((await call('POST', `/api/circles/invitations/${token}`)).statusCode).toBe(401)
    expect((await call('GET', `/api/circles/${circle.id}`, invitee)).statusCode).toBe(404)
  })

  it('a member who joined otherwise is told they are already a member', async () => {
    const { admin, circle } = await adminWithCircle()
    const member = await signedIn(t)
    const { token } = await qrInvitation(t, admin, circle.id, member.user.email)
    await addMember(t, admin, circle.id, member) // a second invitation, accepted
    // The first was replaced by the second (one live invitation per address).
    expect((await call('POST', `/api/circles/invitations/${token}`, member)).statusCode).toBe(404)
  })

  it('two accepts at once add the membership once', async () => {
    const { admin, circle } = await adminWithCircle()
    const invitee = await signedIn(t)
    const { token } = await qrInvitation(t, admin, circle.id, invitee.user.email)
    const results = await Promise.all([
      call('POST', `/api/circles/invitations/${token}`, invitee),
      call('POST', `/api/circles/invitations/${token}`, invitee),
    ])
    expect(results.map((r) => r.statusCode)).toEqual([200, 200])
    expect(results.map((r) => r.json().alreadyMember).sort()).toEqual([false, true])
    expect((await call('GET', `/api/circles/${circle.id}`, admin)).json().circle.memberCount).toBe(2)
  })
})

describe('member limit of the Personal plan', () => {
  it('stops invitations and accepts at 11 members', async () => {
    const { admin, circle } = await adminWithCircle()
    const pending = await qrInvitation(t, admin, circle.id, uniqueEmail('late'))
    for (let i = 0; i < 10; i++) await addMember(t, admin, circle.id, await signedIn(t))
    const invite = await call('POST', `/api/circles/${circle.id}/users`, admin, { email: uniqueEmail() })
    expect(invite.statusCode).toBe(403)
    expect(invite.json()).toEqual({
      message: MESSAGES.memberLimitReached,
      code: 'PLAN_LIMIT_REACHED',
      key: 'memberLimitReached',
    })
    const late = await call('POST', `/api/circles/invitations/${pending.token}`, await signedIn(t))
    expect(late.statusCode).toBe(403)
    expect((await call('GET', `/api/circles/${circle.id}`, admin)).json().circle.memberCount).toBe(11)
  })
})

describe('registration with an invitation (spec 000 §4)', () => {
  it('verifies at once and signs in when the invitation belongs to the same email', async () => {
    const { admin, circle } = await adminWithCircle()
    const email = uniqueEmail('newcomer')
    const { token } = await inviteByEmail(admin, circle.id, email)
    const register = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/users/register', payload })

    const mismatch = await register({
      name: 'Ada',
      email: uniqueEmail('other'),
      password: 'secret123',
      invitationToken: token,
    })
    expect(mismatch.statusCode).toBe(400)
    expect(mismatch.json().message).toBe(MESSAGES.invitationEmailMismatch)

    const invalid = await register({
      name: 'Ada',
      email,
      password: 'secret123',
      invitationToken: 'ab'.repeat(32),
    })
    expect(invalid.statusCode).toBe(400)
    expect(invalid.json()).toEqual({
      message: MESSAGES.invalidInvitation,
      code: 'INVALID_INVITATION',
      key: 'invalidInvitation',
    })

    const res = await register({ name: 'Ada', email, password: 'secret123', invitationToken: token })
    expect(res.statusCode).toBe(201)
    const body = res.json()
    expect(body).toMatchObject({ requiresVerification: false, user: { email, emailVerified: true } })
    // Only the invitation email, no verification email.
    expect((await t.emailsTo(email)).map((m) => m.kind)).toEqual(['circle-invitation'])

    const accept = await t.app.inject({
      method: 'POST',
      url: `/api/circles/invitations/${token}`,
      headers: { authorization: `Bearer ${body.token}` },
    })
    expect(accept.json()).toMatchObject({ success: true, alreadyMember: false })
  })
})
