import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { outbox } from '../src/db/schema'
import { createCircle, signedIn } from './support/circles'
import { uniqueEmail } from './support/factories'
import { freePort, startSmtpSink } from './support/smtp-sink'
import { type TestApp, createTestApp } from './support/test-app'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 50))
  }
}

function verifyLink(body: string) {
  const match = body.match(/http:\/\/localhost:3000\/verify\?token=([0-9a-f]{64})/)
  if (!match?.[1]) throw new Error('no verify link')
  return match[1]
}

async function registerVerifyLogin(t: TestApp, email: string, received: () => Promise<{ decoded: string }>) {
  const reg = await t.app.inject({
    method: 'POST',
    url: '/api/users/register',
    payload: { name: 'Ada', email, password: 'secret123' },
  })
  expect(reg.statusCode).toBe(201)
  const mail = await received()
  const token = verifyLink(mail.decoded)
  const verified = await t.app.inject(`/api/users/verify/${token}`)
  expect(verified.json()).toMatchObject({ verified: true })
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/users/login',
    payload: { email, password: 'secret123' },
  })
  expect(login.statusCode).toBe(200)
  expect(login.json().token).toEqual(expect.any(String))
}

describe('email over real SMTP', () => {
  it('delivers the verification email; its link verifies the account and login works', async () => {
    const sink = await startSmtpSink()
    cleanups.push(sink.close)
    const t = await createTestApp({
      env: { SMTP_URL: sink.url, MAIL_FROM: 'Circles <no-reply@circles.test>' },
    })
    cleanups.push(t.close)
    const email = uniqueEmail('smtp')
    await registerVerifyLogin(t, email, () => sink.waitFor(email))
    const mail = sink.received[0]!
    expect(mail.raw).toMatch(/^From: Circles <no-reply@circles\.test>/m)
    expect(mail.raw).toMatch(/^Subject: Verify your email for Circles/m)
    expect(mail.raw).toContain('text/html')
    // The worker marks the row after the server accepted the message: wait for that, not just the mail.
    const status = async () =>
      (await t.database.db.select().from(outbox).where(eq(outbox.toAddress, email)))[0]?.status
    await waitUntil(async () => (await status()) === 'sent')
    expect(await status()).toBe('sent')
  })

  it('delivers a circle invitation whose link lets the invitee register verified and join', async () => {
    const sink = await startSmtpSink()
    cleanups.push(sink.close)
    const t = await createTestApp({ env: { SMTP_URL: sink.url } })
    cleanups.push(t.close)
    const admin = await signedIn(t, { name: 'Ada Admin' })
    const circle = await createCircle(t, admin, { name: 'Makerspace' })
    const email = uniqueEmail('smtp-invitee')
    const invite = await t.app.inject({
      method: 'POST',
      url: `/api/circles/${circle.id}/users`,
      headers: admin.auth,
      payload: { email },
    })
    expect(invite.statusCode).toBe(201)
    const mail = await sink.waitFor(email)
    expect(mail.raw).toMatch(/^Subject: Ada Admin invited you to Makerspace on Circles/m)
    const token = mail.decoded.match(/http:\/\/localhost:3000\/join\?token=([0-9a-f]{64})/)?.[1]
    expect(token).toBeDefined()
    const reg = await t.app.inject({
      method: 'POST',
      url: '/api/users/register',
      payload: { name: 'Ina', email, password: 'secret123', invitationToken: token },
    })
    expect(reg.json()).toMatchObject({ requiresVerification: false })
    const accept = await t.app.inject({
      method: 'POST',
      url: `/api/circles/invitations/${token}`,
      headers: { authorization: `Bearer ${reg.json().token}` },
    })
    expect(accept.json()).toMatchObject({ success: true, circle: { id: circle.id } })
  })

  it('keeps the email through an SMTP outage and delivers it once the server is back', async () => {
    const port = await freePort()
    const t = await createTestApp({
      env: { SMTP_URL: `smtp://127.0.0.1:${port}`, OUTBOX_INTERVAL_MS: '100' },
    })
    cleanups.push(t.close)
    const email = uniqueEmail('outage')
    const reg = await t.app.inject({
      method: 'POST',
      url: '/api/users/register',
      payload: { name: 'Ada', email, password: 'secret123' },
    })
    expect(reg.statusCode).toBe(201)

    const row = () =>
      t.database.db
        .select()
        .from(outbox)
        .where(eq(outbox.toAddress, email))
        .then((r) => r[0])
    // A refused connection certainly sent nothing: the email is retried, not given up as unknown.
    await waitUntil(async () => Boolean((await row())?.lastError))
    expect(['pending', 'sending']).toContain((await row())?.status)

    const sink = await startSmtpSink(port)
    cleanups.push(sink.close)
    const mail = await sink.waitFor(email, 15_000)
    const token = verifyLink(mail.decoded)
    expect((await t.app.inject(`/api/users/verify/${token}`)).json()).toMatchObject({ verified: true })
    await waitUntil(async () => (await row())?.status === 'sent')
    expect(sink.received.filter((m) => m.to.includes(email))).toHaveLength(1)
  })
})
