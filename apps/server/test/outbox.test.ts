import { eq, sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { outbox } from '../src/db/schema'
import { enqueueEmail } from '../src/lib/mailer/outbox'
import { createUser, uniqueEmail } from './support/factories'
import { freePort, startSmtpSink } from './support/smtp-sink'
import { type TestApp, createTestApp, secondInstance, tokenFromEmail } from './support/test-app'

// Each email goes out once: claimed as 'sending' under a fenced lease before the SMTP conversation,
// never sent again when its outcome is unknown, and its body (with the one-time links) dropped once
// it is out of our hands. docs/decisions/0022.

const onPostgres = Boolean(process.env.DATABASE_URL)
const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

async function waitUntil(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

async function sinkAndApp(env: Record<string, string> = {}, sinkOpts: { dataDelayMs?: number } = {}) {
  const sink = await startSmtpSink(0, sinkOpts)
  cleanups.push(sink.close)
  const t = await createTestApp({ env: { SMTP_URL: sink.url, OUTBOX_INTERVAL_MS: '50', ...env } })
  cleanups.push(t.close)
  return { sink, t }
}

/** An email straight into the outbox, as a service would queue it. */
async function queue(t: TestApp, to = uniqueEmail('mail')) {
  await enqueueEmail(t.database.db, {
    to,
    email: { kind: 'test', subject: 'Hello', text: `Hi ${to}`, html: `<p>Hi ${to}</p>` },
  })
  return to
}

async function row(t: TestApp, to: string) {
  const [found] = await t.database.db.select().from(outbox).where(eq(outbox.toAddress, to))
  if (!found) throw new Error(`no outbox row to ${to}`)
  return found
}

/** The whole row as text, every column. */
async function rowText(t: TestApp, to: string) {
  const [found] = await t.database.db
    .select({ row: sql<string>`to_jsonb(${outbox})::text` })
    .from(outbox)
    .where(eq(outbox.toAddress, to))
  if (!found) throw new Error(`no outbox row to ${to}`)
  return found.row
}

const expectRedacted = (r: typeof outbox.$inferSelect) =>
  expect(r).toMatchObject({ subject: '', textBody: '', htmlBody: '', replyTo: null, listUnsubscribe: null })

describe('each email goes out once', () => {
  it.runIf(onPostgres)('two instances and a slow SMTP server: every email exactly once', async () => {
    const { sink, t } = await sinkAndApp({ SMTP_TIMEOUT_MS: '5000' }, { dataDelayMs: 300 })
    const second = await secondInstance(t, 4, { SMTP_URL: sink.url, OUTBOX_INTERVAL_MS: '50' })
    cleanups.push(second.close)
    const addresses = await Promise.all(Array.from({ length: 8 }, () => queue(t)))
    await waitUntil(
      async () => (await Promise.all(addresses.map((a) => row(t, a)))).every((r) => r.status === 'sent'),
      'all sent',
    )
    for (const address of addresses) {
      expect(sink.countTo(address)).toBe(1)
      expect(await row(t, address)).toMatchObject({ status: 'sent', attempts: 1 })
    }
    expect(sink.received).toHaveLength(addresses.length)
  })

  it.runIf(onPostgres)(
    'a lease that runs out during a slow conversation does not let the other instance send it again',
    async () => {
      const { sink, t } = await sinkAndApp()
      const second = await secondInstance(t, 4, { SMTP_URL: sink.url, OUTBOX_INTERVAL_MS: '50' })
      cleanups.push(second.close)
      sink.hold()
      const to = await queue(t)
      await sink.waitFor(to)
      // The server has the message and has not answered yet; the lease runs out now, as it would in a
      // conversation longer than the lease.
      await t.database.db
        .update(outbox)
        .set({ nextAttemptAt: sql`now() - interval '1 second'` })
        .where(eq(outbox.toAddress, to))
      await waitUntil(
        async () => (await row(t, to)).status === 'unknown' || sink.countTo(to) > 1,
        'the expired claim declared unknown',
      )
      expect(sink.countTo(to)).toBe(1)
      sink.release()
      // The instance still in the conversation records its success when the answer comes.
      await waitUntil(async () => (await row(t, to)).status === 'sent', 'the late success recorded')
      expect(sink.countTo(to)).toBe(1)
    },
  )

  it('sent but not recorded: the email is not sent again', async () => {
    const { sink, t } = await sinkAndApp()
    // The database refuses the first write of a delivery, once.
    await t.database.db.execute(sql`create sequence outbox_fault`)
    await t.database.db.execute(
      sql.raw(`create function outbox_fault() returns trigger language plpgsql as $$
        begin
          if new.status = 'sent' and nextval('outbox_fault') = 1 then
            raise exception 'injected fault: recording the delivery failed';
          end if;
          return new;
        end $$`),
    )
    await t.database.db.execute(
      sql`create trigger outbox_fault before update on outbox for each row execute function outbox_fault()`,
    )
    const to = await queue(t)
    await waitUntil(async () => (await row(t, to)).status !== 'sending' && sink.countTo(to) > 0, 'done')
    await waitUntil(async () => (await row(t, to)).status === 'sent', 'recorded on the retry')
    // Another email after it went through the same worker: the first was not picked up again.
    const next = await queue(t)
    await waitUntil(async () => (await row(t, next)).status === 'sent', 'the next one sent')
    expect(sink.countTo(to)).toBe(1)
    expect(await row(t, to)).toMatchObject({ status: 'sent', attempts: 1 })
  })

  it('a conversation that stalls after the data: outcome unknown, never resent', async () => {
    const { sink, t } = await sinkAndApp({ SMTP_TIMEOUT_MS: '300' })
    sink.hold()
    const to = await queue(t)
    await waitUntil(async () => (await row(t, to)).status === 'unknown', 'declared unknown')
    sink.release()
    const next = await queue(t)
    await waitUntil(async () => (await row(t, next)).status === 'sent', 'the next one sent')
    expect(sink.countTo(to)).toBe(1)
    const stalled = await row(t, to)
    expect(stalled.lastError).toMatch(/timeout/i)
    expectRedacted(stalled)
  })

  it('an email left sending by a stopped instance is declared unknown once its lease ran out', async () => {
    const { sink, t } = await sinkAndApp()
    const to = uniqueEmail('crashed')
    await t.database.db.transaction(async (tx) => {
      await enqueueEmail(tx, { to, email: { kind: 'test', subject: 'Hi', text: 'Hi', html: '<p>Hi</p>' } })
      await tx
        .update(outbox)
        .set({ status: 'sending', attempts: 1, nextAttemptAt: sql`now() - interval '1 second'` })
        .where(eq(outbox.toAddress, to))
    })
    await waitUntil(async () => (await row(t, to)).status === 'unknown', 'declared unknown')
    const next = await queue(t)
    await waitUntil(async () => (await row(t, next)).status === 'sent', 'the next one sent')
    expect(sink.countTo(to)).toBe(0)
    expectRedacted(await row(t, to))
  })

  it('a refused connection is retried: certainly not sent', async () => {
    const port = await freePort()
    const t = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}`, OUTBOX_INTERVAL_MS: '50' } })
    cleanups.push(t.close)
    const to = await queue(t)
    await waitUntil(async () => (await row(t, to)).attempts >= 2, 'retried')
    expect(['pending', 'sending']).toContain((await row(t, to)).status)
    expect((await row(t, to)).textBody).toBe(`Hi ${to}`)
  })
})

describe('no usable token outlives its email in the outbox', () => {
  it('after delivery the row holds no token, and the link from the email resets the password', async () => {
    const { sink, t } = await sinkAndApp()
    const user = await createUser(t.database)
    const asked = await t.app.inject({
      method: 'POST',
      url: '/api/users/request-password-reset',
      payload: { email: user.email },
    })
    expect(asked.statusCode).toBe(200)
    const mail = await sink.waitFor(user.email)
    const token = tokenFromEmail(mail.decoded, '/reset-password')
    await waitUntil(async () => (await row(t, user.email)).status === 'sent', 'recorded as sent')
    const stored = await rowText(t, user.email)
    expect(stored).not.toContain(token)
    expect(stored).not.toContain('reset-password')
    const kept = await row(t, user.email)
    expectRedacted(kept)
    expect(kept).toMatchObject({
      kind: 'password-reset',
      toAddress: user.email,
      attempts: 1,
      lastError: null,
    })
    expect(kept.sentAt).toBeInstanceOf(Date)

    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/users/reset-password',
      payload: { token, newPassword: 'a brand new one', confirmPassword: 'a brand new one' },
    })
    expect(reset.statusCode).toBe(200)
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/users/login',
      payload: { email: user.email, password: 'a brand new one' },
    })
    expect(login.statusCode).toBe(200)
  })

  it('an email given up for good keeps no body either', async () => {
    const port = await freePort()
    const t = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}`, OUTBOX_INTERVAL_MS: '50' } })
    cleanups.push(t.close)
    const to = uniqueEmail('given-up')
    await t.database.db.transaction(async (tx) => {
      await enqueueEmail(tx, {
        to,
        replyTo: 'someone@example.com',
        email: {
          kind: 'test',
          subject: 'Hi',
          text: 'http://localhost:3000/verify?token=abc',
          html: '<p>Hi</p>',
          listUnsubscribe: 'http://localhost:3000/api/unsubscribe?token=abc',
        },
      })
      // The last attempt is next.
      await tx.update(outbox).set({ attempts: 11 }).where(eq(outbox.toAddress, to))
    })
    await waitUntil(async () => (await row(t, to)).status === 'failed', 'given up')
    const failed = await row(t, to)
    expectRedacted(failed)
    expect(failed.attempts).toBe(12)
    expect(failed.lastError).toMatch(/ECONNREFUSED/)
    expect(await rowText(t, to)).not.toContain('token=')
  })

  it('without SMTP, a logged email keeps no body', async () => {
    const t = await createTestApp({ env: { OUTBOX_INTERVAL_MS: '50' } })
    cleanups.push(t.close)
    const user = await createUser(t.database)
    await t.app.inject({
      method: 'POST',
      url: '/api/users/request-password-reset',
      payload: { email: user.email },
    })
    await waitUntil(async () => (await row(t, user.email)).status === 'logged', 'logged')
    expectRedacted(await row(t, user.email))
    expect(await rowText(t, user.email)).not.toContain('token=')
    // The test support still sees what was handed to the transport.
    const [mail] = await t.emailsTo(user.email)
    expect(tokenFromEmail(mail!.textBody, '/reset-password')).toMatch(/^[0-9a-f]{64}$/)
  })
})
