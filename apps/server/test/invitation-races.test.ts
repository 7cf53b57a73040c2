import { MESSAGES } from '@circles/shared'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { circleMembers, invitations } from '../src/db/schema'
import { type SignedIn, createCircle, signedIn } from './support/circles'
import { uniqueEmail } from './support/factories'
import { type TestApp, createTestApp, tokenFromEmail } from './support/test-app'

// Two admins' or an admin's and an invitee's requests on one invitation, sent at the same time: each
// pair ends in a state some serial order of the two would give, and nothing is emailed for an
// invitation that is no longer pending. A few rounds per pair, so the interleavings vary.

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const ROUNDS = 5

function call(method: 'POST' | 'DELETE', url: string, who: SignedIn) {
  return t.app.inject({ method, url, headers: who.auth })
}

async function setup() {
  const admin = await signedIn(t, { name: 'Ada Admin' })
  const circle = await createCircle(t, admin, { name: 'Makerspace' })
  const invitee = await signedIn(t, { email: uniqueEmail('racer') })
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/circles/${circle.id}/users`,
    headers: admin.auth,
    payload: { email: invitee.user.email },
  })
  expect(res.statusCode).toBe(201)
  const [mail] = await t.emailsTo(invitee.user.email)
  if (!mail) throw new Error('no invitation email')
  const id: string = res.json().invitation.id
  const token = tokenFromEmail(mail.textBody, '/join')
  return {
    invitee,
    cancel: () => call('DELETE', `/api/circles/${circle.id}/invitations/${id}`, admin),
    resend: () => call('POST', `/api/circles/${circle.id}/invitations/${id}/resend`, admin),
    accept: (who: SignedIn = invitee) => call('POST', `/api/circles/invitations/${token}`, who),
    row: async () => (await t.database.db.select().from(invitations).where(eq(invitations.id, id)))[0]!,
    invitationEmails: async () =>
      (await t.emailsTo(invitee.user.email)).filter((m) => m.kind === 'circle-invitation').length,
    isMember: async (who: SignedIn) =>
      (
        await t.database.db
          .select()
          .from(circleMembers)
          .where(and(eq(circleMembers.circleId, circle.id), eq(circleMembers.userId, who.user.id)))
      ).length === 1,
  }
}

describe('racing state changes of one invitation', () => {
  it('cancel vs accept: exactly one wins, and a cancel never overwrites an acceptance', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const s = await setup()
      const [cancel, accept] = await Promise.all([s.cancel(), s.accept()])
      const row = await s.row()
      if (accept.statusCode === 200) {
        expect(accept.json()).toMatchObject({ success: true, message: MESSAGES.joinedCircle })
        expect(cancel.statusCode).toBe(404)
        expect(row.status).toBe('ACCEPTED')
        expect(await s.isMember(s.invitee)).toBe(true)
      } else {
        expect(cancel.statusCode).toBe(200)
        expect(accept.statusCode).toBe(404)
        expect(accept.json().message).toBe(MESSAGES.invitationNotFound)
        expect(row.status).toBe('CANCELLED')
        expect(await s.isMember(s.invitee)).toBe(false)
      }
    }
  })

  it('resend vs accept: an accepted invitation is neither re-tokened nor emailed', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const s = await setup()
      const before = await s.row()
      const [resend, accept] = await Promise.all([s.resend(), s.accept()])
      const row = await s.row()
      if (accept.statusCode === 200) {
        // Accepted with the first link, so the resend came second and must have found it accepted.
        expect(resend.statusCode).toBe(404)
        expect(row.status).toBe('ACCEPTED')
        expect(row.tokenHash).toBe(before.tokenHash)
        expect(await s.invitationEmails()).toBe(1)
      } else {
        // Resent first: the old link stopped working before the accept.
        expect(resend.statusCode).toBe(200)
        expect(resend.json().invitation.status).toBe('PENDING')
        expect(accept.statusCode).toBe(404)
        expect(row.status).toBe('PENDING')
        expect(await s.invitationEmails()).toBe(2)
      }
    }
  })

  it('cancel vs resend: a cancelled invitation is neither re-tokened nor emailed', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const s = await setup()
      const before = await s.row()
      const [cancel, resend] = await Promise.all([s.cancel(), s.resend()])
      expect(cancel.statusCode).toBe(200)
      const row = await s.row()
      expect(row.status).toBe('CANCELLED')
      if (resend.statusCode === 200) {
        // Resent before the cancel: it was pending then.
        expect(resend.json().invitation.status).toBe('PENDING')
        expect(row.tokenHash).not.toBe(before.tokenHash)
        expect(await s.invitationEmails()).toBe(2)
      } else {
        expect(resend.statusCode).toBe(404)
        expect(row.tokenHash).toBe(before.tokenHash)
        expect(await s.invitationEmails()).toBe(1)
      }
    }
  })

  it('accept twice by the invitee: one join, one welcome back', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const s = await setup()
      const answers = await Promise.all([s.accept(), s.accept()])
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200])
      expect(answers.map((a) => a.json().message).sort()).toEqual(
        [MESSAGES.alreadyMemberWelcome, MESSAGES.joinedCircle].sort(),
      )
      expect((await s.row()).status).toBe('ACCEPTED')
    }
  })

  it('accept by two users at once: one joins, the other is told it is already accepted', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const s = await setup()
      const other = await signedIn(t)
      const [mine, theirs] = await Promise.all([s.accept(), s.accept(other)])
      const winners = [mine, theirs].filter((a) => a.statusCode === 200)
      expect(winners).toHaveLength(1)
      const loser = [mine, theirs].find((a) => a.statusCode !== 200)!
      expect(loser.json().message).toBe(MESSAGES.invitationAlreadyAccepted)
      expect((await s.isMember(s.invitee)) !== (await s.isMember(other))).toBe(true)
    }
  })
})
