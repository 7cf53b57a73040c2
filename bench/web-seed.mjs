// The signed-in screens' data and session for the web benchmarks (web.mjs, web-profile.mjs): seeded
// through the API, and a browser context signed in the way a sign-in leaves it.
import { json, verifiedUser } from './lib.mjs'

/**
 * What the signed-in screens show: a circle of two members with eight items, two confirmed handovers
 * (and their ledger blocks), one request waiting; `screens` are the paths measured.
 */
export async function seed(app) {
  const { base } = app
  const owner = await verifiedUser(base, app, 'owner@example.com')
  const member = await verifiedUser(base, app, 'member@example.com')
  const circle = (
    await json(`${base}/api/circles`, { name: 'Bench circle', description: 'Things we share' }, owner.auth)
  ).body.circle
  const invited = await json(
    `${base}/api/circles/${circle.id}/invitations/qr`,
    { email: member.email },
    owner.auth,
  )
  const accepted = await fetch(`${base}/api/circles/invitations/${invited.body.invitation.token}`, {
    method: 'POST',
    headers: member.auth,
  })
  if (!accepted.ok) throw new Error(`join failed: ${accepted.status}`)
  const items = []
  for (const name of [
    'Drill',
    'Ladder',
    'Tent',
    'Camping stove',
    'Projector',
    'Cargo bike',
    'Sewing machine',
    'Kayak',
  ]) {
    const created = await json(
      `${base}/api/items`,
      { name, description: `A ${name.toLowerCase()} to share`, circleId: circle.id },
      owner.auth,
    )
    if (created.status !== 201 && created.status !== 200)
      throw new Error(`item: ${JSON.stringify(created.body)}`)
    items.push(created.body.item)
  }
  const handover = async (itemId, from, to, confirm) => {
    const request = await json(`${base}/api/handovers`, { itemId, receiverId: to.user.id }, from.auth)
    if (!request.body.handover) throw new Error(`handover: ${JSON.stringify(request.body)}`)
    if (!confirm) return
    const res = await fetch(`${base}/api/handovers/${request.body.handover.id}/status`, {
      method: 'PUT',
      headers: { ...to.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'CONFIRMED' }),
    })
    if (!res.ok) throw new Error(`confirm failed: ${res.status} ${await res.text()}`)
  }
  await handover(items[0].id, owner, member, true)
  await handover(items[0].id, member, owner, true)
  await handover(items[1].id, owner, member, false)
  const token = owner.auth.authorization.slice('Bearer '.length)
  return {
    session: { token, user: owner.user },
    screens: [
      ['dashboard', '/dashboard'],
      ['circles', '/circles'],
      ['circle', `/circle/${circle.id}`],
      ['items', '/items'],
      ['circle items', `/circle/${circle.id}/items`],
      ['item', `/items/${items[0].id}`],
      ['handover', `/items/${items[2].id}/handover`],
      ['ledger', `/blockchain/circle/${circle.id}`],
    ],
  }
}

/** The cookie a decided visitor has (necessary only), as vanilla-cookieconsent writes it (e2e/support/fixtures.ts). */
function consentCookie(base) {
  const now = new Date().toISOString()
  const value = {
    categories: ['necessary'],
    revision: 0,
    data: null,
    consentTimestamp: now,
    consentId: '00000000-0000-4000-8000-000000000000',
    services: { necessary: [], analytics: [] },
    languageCode: 'en',
    lastConsentTimestamp: now,
    expirationTime: Date.now() + 182 * 24 * 3600 * 1000,
  }
  return { name: 'cc_cookie', value: encodeURIComponent(JSON.stringify(value)), url: base, sameSite: 'Lax' }
}

/** Puts the session into the context the way a sign-in leaves it (apps/web/src/lib/session.ts). */
export async function signIn(context, base, session) {
  // The session's cookie, as the app mirrors the stored token into it (docs/decisions/0068).
  const sessionCookie = { name: 'circles_session', value: session.token, url: base, sameSite: 'Strict' }
  await context.addCookies([consentCookie(base), sessionCookie])
  const page = await context.newPage()
  await page.goto(`${base}/robots.txt`)
  await page.evaluate(({ token, user }) => {
    localStorage.setItem('token', token)
    localStorage.setItem('user', JSON.stringify(user))
    localStorage.setItem('userId', user.id)
    localStorage.setItem('language', 'en')
  }, session)
  await page.close()
}
