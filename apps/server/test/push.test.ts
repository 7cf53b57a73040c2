import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { pushOutbox, pushSubscriptions } from '../src/db/schema'
import { type SignedIn, addMember, createCircle, qrInvitation, signedIn } from './support/circles'
import { answerHandover, createItem, pendingHandover } from './support/handovers'
import { type PushEndpoint, checkVapid, deviceKeys, startPushEndpoint } from './support/push-endpoint'
import { type TestApp, createTestApp } from './support/test-app'

// Issue 27, Web Push (docs/decisions/0053): the routes, and the whole way of a notice to a push service
// of the test's own, whose requests the test decrypts with the device's keys.

let t: TestApp
let push: PushEndpoint
const lines: string[] = []
beforeAll(async () => {
  push = await startPushEndpoint()
  // A request that never gets an answer is given up after 300 ms and retried.
  t = await createTestApp({
    env: { PUSH_TIMEOUT_MS: '300' },
    logStream: { write: (line: string) => lines.push(line) },
  })
})
afterAll(async () => {
  await t.close()
  await push.close()
})

const inject = (
  who: SignedIn | null,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) => t.app.inject({ method, url, headers: who?.auth ?? {}, ...(payload && { payload }) })

/** A device of `who` with push on, at a fresh endpoint of the test's push service. */
async function device(who: SignedIn) {
  const keys = deviceKeys()
  const endpoint = push.endpointUrl()
  const res = await inject(who, 'POST', '/api/push/subscriptions', {
    endpoint,
    expirationTime: null,
    keys: { p256dh: keys.p256dh, auth: keys.auth },
  })
  expect(res.statusCode, res.body).toBe(200)
  return { ...keys, endpoint }
}

async function pair() {
  const ida = await signedIn(t, { name: 'Ida Owner' })
  const ben = await signedIn(t, { name: 'Ben Nachbar', language: 'de' })
  const circle = await createCircle(t, ida, { name: 'Linden Street' })
  await addMember(t, ida, circle.id, ben)
  return { ida, ben, circle }
}

const toEndpoint = (endpoint: string) => push.received.filter((r) => r.path === new URL(endpoint).pathname)
const subscriptionOf = async (endpoint: string) =>
  (await t.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint)))[0]
const queuedFor = async (endpoint: string) => {
  const sub = await subscriptionOf(endpoint)
  return sub ? t.database.db.select().from(pushOutbox).where(eq(pushOutbox.subscriptionId, sub.id)) : []
}

describe('push routes', () => {
  it('GET /api/push/key answers the VAPID public key to anyone', async () => {
    const res = await inject(null, 'GET', '/api/push/key')
    expect(res.statusCode).toBe(200)
    const key = Buffer.from(res.json().publicKey, 'base64url')
    expect(key).toHaveLength(65)
    expect(key[0]).toBe(4)
  })

  it('subscribing needs a session, is idempotent by endpoint, and moves a device to whoever subscribed last', async () => {
    const { ida, ben } = await pair()
    const keys = deviceKeys()
    const endpoint = push.endpointUrl()
    const body = { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } }
    expect((await inject(null, 'POST', '/api/push/subscriptions', body)).statusCode).toBe(401)
    expect((await inject(ida, 'POST', '/api/push/subscriptions', body)).json()).toEqual({ subscribed: true })
    expect((await inject(ida, 'POST', '/api/push/subscriptions', body)).statusCode).toBe(200)
    const rows = await t.database.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, endpoint))
    expect(rows).toHaveLength(1)
    expect(rows[0]?.userId).toBe(ida.user.id)
    // Ben signs in on the same browser and turns push on: the device is his now.
    await inject(ben, 'POST', '/api/push/subscriptions', body)
    expect((await subscriptionOf(endpoint))?.userId).toBe(ben.user.id)
    expect((await inject(ida, 'POST', '/api/push/subscriptions/status', { endpoint })).json()).toEqual({
      subscribed: false,
    })
    expect((await inject(ben, 'POST', '/api/push/subscriptions/status', { endpoint })).json()).toEqual({
      subscribed: true,
    })
  })

  it('refuses plain http to other hosts, credentials in the URL and keys that are no P-256 point', async () => {
    const ida = await signedIn(t)
    const keys = deviceKeys()
    const subscribe = (endpoint: string, p256dh = keys.p256dh, auth = keys.auth) =>
      inject(ida, 'POST', '/api/push/subscriptions', { endpoint, keys: { p256dh, auth } })
    const refused = await subscribe('http://push.example.com/send/abc')
    expect(refused.statusCode).toBe(400)
    expect(refused.json().key).toBe('pushEndpointRefused')
    expect((await subscribe('https://user:pw@push.example.com/send/abc')).statusCode).toBe(400)
    expect((await subscribe('ftp://push.example.com/x')).statusCode).toBe(400)
    const notAPoint = Buffer.alloc(65, 7)
    notAPoint[0] = 4
    expect(
      (await subscribe('https://push.example.com/send/a', notAPoint.toString('base64url'))).statusCode,
    ).toBe(400)
    expect((await subscribe('https://push.example.com/send/b', keys.p256dh, 'short')).statusCode).toBe(400)
    expect((await subscribe('https://push.example.com/send/c')).statusCode).toBe(200)
  })

  it('unsubscribe removes only the caller’s own device', async () => {
    const { ida, ben } = await pair()
    const mine = await device(ida)
    expect(
      (await inject(ben, 'DELETE', '/api/push/subscriptions', { endpoint: mine.endpoint })).json(),
    ).toEqual({
      subscribed: false,
    })
    expect(await subscriptionOf(mine.endpoint)).toBeDefined()
    expect(
      (await inject(null, 'DELETE', '/api/push/subscriptions', { endpoint: mine.endpoint })).statusCode,
    ).toBe(401)
    expect(
      (await inject(ida, 'DELETE', '/api/push/subscriptions', { endpoint: mine.endpoint })).statusCode,
    ).toBe(200)
    expect(await subscriptionOf(mine.endpoint)).toBeUndefined()
  })

  it('the push switches live beside the email switches; those left out stay', async () => {
    const ida = await signedIn(t)
    const before = (await inject(ida, 'GET', '/api/users/me/notifications')).json().notices
    expect(before.push).toEqual({
      handoverRequests: true,
      handoverAnswers: true,
      invitations: true,
      loanReminders: true,
    })
    const res = await inject(ida, 'PUT', '/api/users/me/notifications', {
      handoverRequests: true,
      handoverAnswers: true,
      invitations: true,
      push: { invitations: false },
    })
    expect(res.json().notices.push).toEqual({
      handoverRequests: true,
      handoverAnswers: true,
      invitations: false,
      loanReminders: true,
    })
    // An older client's body without `push` changes none of them.
    const old = await inject(ida, 'PUT', '/api/users/me/notifications', {
      handoverRequests: false,
      handoverAnswers: true,
      invitations: true,
    })
    expect(old.json().notices.push.invitations).toBe(false)
    expect(old.json().notices.handoverRequests).toBe(false)
  })
})

describe('push delivery', () => {
  it('a handover request reaches the receiver’s device after commit: decrypted, in her language, with a valid VAPID JWT', async () => {
    const { ida, ben, circle } = await pair()
    const phone = await device(ben)
    const key = (await inject(null, 'GET', '/api/push/key')).json().publicKey
    const item = await createItem(t, ida, circle.id, 'Bohrmaschine')
    await pendingHandover(t, ida, ben, item.id)
    await vi.waitFor(() => expect(toEndpoint(phone.endpoint)).toHaveLength(1), { timeout: 5000 })
    const [request] = toEndpoint(phone.endpoint)
    expect(request?.headers['content-encoding']).toBe('aes128gcm')
    expect(Number(request?.headers.ttl)).toBeGreaterThan(0)
    const { claims, publicKey } = checkVapid(request?.headers.authorization, phone.endpoint)
    expect(publicKey).toBe(key)
    expect(claims.sub).toBe('mailto:team@circles.test')
    const notice = JSON.parse(phone.decrypt(request!.body))
    expect(notice).toEqual({
      title: 'Ida Owner möchte dir Bohrmaschine übergeben',
      body: 'Nimm die Übergabe in Circles an oder lehne sie ab.',
      url: `/items/${item.id}/handover`,
      tag: `handoverRequests:/items/${item.id}/handover`,
    })
    await vi.waitFor(async () => expect((await queuedFor(phone.endpoint))[0]?.status).toBe('sent'))
    const [row] = await queuedFor(phone.endpoint)
    // Done: the notice's text is dropped; the queue never held the device's keys or endpoint.
    expect(row?.payload).toBe('')
    expect(JSON.stringify(row)).not.toContain(phone.p256dh)
    expect((await subscriptionOf(phone.endpoint))?.lastSuccessAt).toBeInstanceOf(Date)
    // No endpoint (a capability URL) in any log line.
    expect(lines.join('\n')).not.toContain(new URL(phone.endpoint).pathname)
  })

  it('the answer goes to the sender’s devices, every one of them; an invitation opens the dashboard, not its token', async () => {
    const { ida, ben, circle } = await pair()
    const laptop = await device(ida)
    const phone = await device(ida)
    const item = await createItem(t, ida, circle.id)
    const pending = await pendingHandover(t, ida, ben, item.id)
    expect((await answerHandover(t, ben, pending.id, 'REJECTED')).statusCode).toBe(200)
    for (const d of [laptop, phone]) {
      await vi.waitFor(() => expect(toEndpoint(d.endpoint)).toHaveLength(1), { timeout: 5000 })
      const notice = JSON.parse(d.decrypt(toEndpoint(d.endpoint)[0]!.body))
      expect(notice.title).toBe('Ben Nachbar rejected Cordless drill')
      expect(notice.url).toBe(`/items/${item.id}`)
    }
    const carla = await signedIn(t, { name: 'Carla' })
    const hers = await device(carla)
    await qrInvitation(t, ida, circle.id, carla.user.email)
    await vi.waitFor(() => expect(toEndpoint(hers.endpoint)).toHaveLength(1), { timeout: 5000 })
    const invitation = JSON.parse(hers.decrypt(toEndpoint(hers.endpoint)[0]!.body))
    expect(invitation.url).toBe('/dashboard')
    expect(JSON.stringify(invitation)).not.toContain('token')
  })

  it('a kind switched off for push queues nothing for the devices (the email still goes)', async () => {
    const { ida, ben, circle } = await pair()
    const phone = await device(ben)
    await inject(ben, 'PUT', '/api/users/me/notifications', {
      handoverRequests: true,
      handoverAnswers: true,
      invitations: true,
      push: { handoverRequests: false },
    })
    const item = await createItem(t, ida, circle.id)
    await pendingHandover(t, ida, ben, item.id)
    expect(await queuedFor(phone.endpoint)).toEqual([])
    expect((await t.emailsTo(ben.user.email)).map((e) => e.kind)).toContain('handover-requested')
  })

  it('410 Gone removes the subscription (and its queued notices)', async () => {
    const { ida, ben, circle } = await pair()
    const phone = await device(ben)
    push.answers.push(410)
    await pendingHandover(t, ida, ben, (await createItem(t, ida, circle.id)).id)
    await vi.waitFor(async () => expect(await subscriptionOf(phone.endpoint)).toBeUndefined(), {
      timeout: 5000,
    })
    expect(toEndpoint(phone.endpoint)).toHaveLength(1)
  })

  it('a 500 and a request without an answer are retried with backoff until the push service takes it', async () => {
    const { ida, ben, circle } = await pair()
    const phone = await device(ben)
    push.answers.push(500, 'hang')
    await pendingHandover(t, ida, ben, (await createItem(t, ida, circle.id)).id)
    await vi.waitFor(async () => expect((await queuedFor(phone.endpoint))[0]?.status).toBe('sent'), {
      timeout: 10_000,
      interval: 100,
    })
    const [row] = await queuedFor(phone.endpoint)
    expect(row?.attempts).toBe(3)
    const received = toEndpoint(phone.endpoint)
    expect(received).toHaveLength(3)
    // The same notice each time (decrypts to the same text under a fresh salt).
    const texts = received.map((r) => phone.decrypt(r.body))
    expect(new Set(texts).size).toBe(1)
    expect(lines.some((line) => line.includes('push delivery failed') && line.includes('500'))).toBe(true)
    expect(lines.some((line) => line.includes('no answer within 300 ms'))).toBe(true)
  })

  it('deleting the account removes every device', async () => {
    const ben = await signedIn(t)
    const phone = await device(ben)
    const res = await inject(ben, 'POST', '/api/users/me/delete', { password: ben.user.password })
    expect(res.statusCode, res.body).toBe(200)
    expect(await subscriptionOf(phone.endpoint)).toBeUndefined()
  })
})

describe('a public server posts to public push services only', () => {
  let pub: TestApp
  beforeAll(async () => {
    pub = await createTestApp({ env: { PUBLIC_URL: 'https://circles.example', PUSH_TIMEOUT_MS: '300' } })
  })
  afterAll(async () => {
    await pub.close()
  })

  it('a device whose endpoint is on a private, link-local or loopback address is dropped unsent', async () => {
    const ida = await signedIn(pub, { name: 'Ida Owner' })
    const ben = await signedIn(pub, { name: 'Ben Nachbar' })
    const circle = await createCircle(pub, ida, { name: 'Linden Street' })
    await addMember(pub, ida, circle.id, ben)
    const endpoints = [
      'https://10.0.0.5/push/1',
      'https://169.254.169.254/latest',
      'https://[::ffff:127.0.0.1]/x',
    ]
    for (const endpoint of endpoints) {
      const keys = deviceKeys()
      const res = await pub.app.inject({
        method: 'POST',
        url: '/api/push/subscriptions',
        headers: ben.auth,
        payload: { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } },
      })
      expect(res.statusCode, res.body).toBe(200)
    }
    await pendingHandover(pub, ida, ben, (await createItem(pub, ida, circle.id)).id)
    await vi.waitFor(
      async () => expect(await pub.database.db.select().from(pushSubscriptions)).toHaveLength(0),
      { timeout: 5000 },
    )
    expect(push.received).not.toContainEqual(expect.objectContaining({ path: '/latest' }))
  })
})
