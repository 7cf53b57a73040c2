import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SignedIn, addMember, createCircle, qrInvitation, signedIn } from './support/circles'
import { answerHandover, createItem, pendingHandover } from './support/handovers'
import { type TestApp, createTestApp } from './support/test-app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const kinds = async (who: SignedIn) => (await t.emailsTo(who.user.email)).map((m) => m.kind)

function unsubscribeToken(body: string): string {
  const match = body.match(/\/unsubscribe\?token=([^\s"&<]+)/)
  if (!match?.[1]) throw new Error('no unsubscribe link')
  return decodeURIComponent(match[1])
}

async function setNotices(who: SignedIn, notices: Record<string, boolean>) {
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/users/me/notifications',
    headers: who.auth,
    payload: notices,
  })
  expect(res.statusCode, res.body).toBe(200)
  return res.json().notices
}

async function pair(language: 'en' | 'de' = 'en') {
  const ida = await signedIn(t, { name: 'Ida Owner' })
  const ben = await signedIn(t, { name: 'Ben Nachbar', language })
  const circle = await createCircle(t, ida, { name: 'Linden Street' })
  await addMember(t, ida, circle.id, ben)
  return { ida, ben, circle }
}

describe('email notices', () => {
  it('tell the receiver of a request in their language, with the link that acts on it', async () => {
    const { ida, ben, circle } = await pair('de')
    const item = await createItem(t, ida, circle.id, 'Bohrmaschine')
    await pendingHandover(t, ida, ben, item.id, { secretMessage: 'Schlüssel unter der Matte' })
    const [mail] = await t.emailsTo(ben.user.email)
    expect(mail).toMatchObject({
      kind: 'handover-requested',
      subject: 'Ida Owner möchte dir Bohrmaschine übergeben',
    })
    expect(mail!.textBody).toContain(`http://localhost:3000/items/${item.id}/handover`)
    expect(mail!.textBody).toContain('/unsubscribe?token=')
    expect(mail!.listUnsubscribe).toMatch(/^http:\/\/localhost:3000\/api\/users\/unsubscribe\?token=/)
    expect(mail!.textBody + mail!.htmlBody).not.toContain('Schlüssel')
    expect(await kinds(ida)).not.toContain('handover-requested')
  })

  it('tell the sender of an acceptance and of a rejection', async () => {
    const { ida, ben, circle } = await pair()
    const first = await createItem(t, ida, circle.id, 'Ladder')
    const a = await pendingHandover(t, ida, ben, first.id)
    await answerHandover(t, ben, a.id, 'CONFIRMED')
    const second = await createItem(t, ida, circle.id, 'Tent')
    const b = await pendingHandover(t, ida, ben, second.id)
    await answerHandover(t, ben, b.id, 'REJECTED')
    const mails = await t.emailsTo(ida.user.email)
    expect(mails.map((m) => m.subject)).toEqual(
      expect.arrayContaining(['Ben Nachbar accepted Ladder', 'Ben Nachbar rejected Tent']),
    )
    expect(mails.find((m) => m.subject === 'Ben Nachbar rejected Tent')!.textBody).toContain(
      `/items/${second.id}`,
    )
  })

  it('respect the preferences, each kind on its own, on by default', async () => {
    const { ida, ben, circle } = await pair()
    const read = await t.app.inject({ method: 'GET', url: '/api/users/me/notifications', headers: ben.auth })
    // Issue 26 added the three lending kinds, on by default too.
    const lending = { loanReminders: true, borrowRequests: true, loanChanges: true }
    // Issue 27: the push switches, all on by default, untouched by a body without them.
    const push = {
      push: { handoverRequests: true, handoverAnswers: true, invitations: true, loanReminders: true },
    }
    expect(read.json().notices).toEqual({
      handoverRequests: true,
      handoverAnswers: true,
      invitations: true,
      ...lending,
      ...push,
    })
    expect(
      await setNotices(ben, { handoverRequests: false, handoverAnswers: true, invitations: true }),
    ).toEqual({
      handoverRequests: false,
      handoverAnswers: true,
      invitations: true,
      ...lending,
      ...push,
    })
    await setNotices(ida, { handoverRequests: true, handoverAnswers: false, invitations: true })
    const item = await createItem(t, ida, circle.id)
    const h = await pendingHandover(t, ida, ben, item.id)
    await answerHandover(t, ben, h.id, 'CONFIRMED')
    expect(await kinds(ben)).not.toContain('handover-requested')
    expect(await kinds(ida)).not.toContain('handover-answered')
    const bad = await t.app.inject({
      method: 'PUT',
      url: '/api/users/me/notifications',
      headers: ben.auth,
      payload: { handoverRequests: 'yes' },
    })
    expect(bad.statusCode).toBe(400)
  })

  it('send a QR invitation to an existing account as a notice with the join link; nobody else gets one', async () => {
    const admin = await signedIn(t, { name: 'Ada Admin' })
    const existing = await signedIn(t)
    const circle = await createCircle(t, admin, { name: 'Garden' })
    await qrInvitation(t, admin, circle.id, existing.user.email)
    const [mail] = await t.emailsTo(existing.user.email)
    expect(mail).toMatchObject({
      kind: 'invitation-notice',
      subject: 'Ada Admin invited you to Garden on Circles',
    })
    expect(mail!.textBody).toMatch(/\/join\?token=[0-9a-f]{64}/)
    await qrInvitation(t, admin, circle.id, 'no-account-yet@example.com')
    expect(await t.emailsTo('no-account-yet@example.com')).toEqual([])
  })

  it('stop with the unsubscribe link, without signing in; a forged link is refused', async () => {
    const { ida, ben, circle } = await pair()
    const item = await createItem(t, ida, circle.id)
    const h = await pendingHandover(t, ida, ben, item.id)
    const [mail] = await t.emailsTo(ben.user.email)
    const token = unsubscribeToken(mail!.textBody)
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/users/unsubscribe',
      payload: { token: token.replace('handoverRequests', 'invitations') },
    })
    expect(forged.statusCode).toBe(400)
    expect(forged.json().message).toBe('This unsubscribe link is not valid.')
    const res = await t.app.inject({ method: 'POST', url: '/api/users/unsubscribe', payload: { token } })
    expect(res.json()).toEqual({ message: 'You will no longer receive these emails.' })
    const read = await t.app.inject({ method: 'GET', url: '/api/users/me/notifications', headers: ben.auth })
    expect(read.json().notices).toMatchObject({ handoverRequests: false, handoverAnswers: true })

    // The mail client's one-click button (RFC 8058) posts a form to the List-Unsubscribe URL.
    await answerHandover(t, ben, h.id, 'REJECTED')
    const [answer] = await t.emailsTo(ida.user.email)
    const oneClick = await t.app.inject({
      method: 'POST',
      url: new URL(answer!.listUnsubscribe!).pathname + new URL(answer!.listUnsubscribe!).search,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    })
    expect(oneClick.statusCode, oneClick.body).toBe(200)
    const idaNotices = await t.app.inject({
      method: 'GET',
      url: '/api/users/me/notifications',
      headers: ida.auth,
    })
    expect(idaNotices.json().notices.handoverAnswers).toBe(false)
  })
})
