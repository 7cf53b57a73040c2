import type { TActivity } from '@circles/shared'
import { and, eq, inArray, like, sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { activities, loanReminders, pushOutbox, pushSubscriptions } from '../src/db/schema'
import { formatDue, loanReminderEmail } from '../src/lib/mailer/loan-reminder-templates'
import { type SignedIn, addMember, createCircle, signedIn } from './support/circles'
import { insertLoan, setDueAt, setReturned, setTimeZone, testClock } from './support/loans'
import { deviceKeys, startPushEndpoint } from './support/push-endpoint'
import { type Listener, connectAs, listen, tokenOf } from './support/sockets'
import { type TestApp, createTestApp, secondInstance } from './support/test-app'

const clock = testClock('2026-01-01T00:00:00Z')
let t: TestApp
beforeAll(async () => {
  t = await createTestApp({ clock: clock.now, env: { PLAN_LIMITS: 'off' } })
})
afterAll(() => t.close())

async function feed(who: SignedIn): Promise<TActivity[]> {
  const res = await t.app.inject({ method: 'GET', url: '/api/activities/recent', headers: who.auth })
  expect(res.statusCode, res.body).toBe(200)
  return res.json().activities
}
const loanEntries = async (who: SignedIn, loanId: string) =>
  (await feed(who)).filter(
    (a) => a.type.startsWith('LOAN_') && (a.data as { loanId: string }).loanId === loanId,
  )
const reminderMails = async (who: SignedIn) =>
  (await t.emailsTo(who.user.email)).filter((m) => m.kind.startsWith('loan-'))

/** The app listens once per file; every socket test connects to the same address. */
let listening: Promise<string> | undefined
const address = () => (listening ??= listen(t))

async function scanAt(at: string) {
  clock.set(at)
  return t.app.loanReminders.scan()
}

async function lending(
  opts: { borrowerLanguage?: 'en' | 'de'; borrowerZone?: string; lenderZone?: string } = {},
) {
  const ida = await signedIn(t, { name: 'Ida Lender' })
  const ben = await signedIn(t, { name: 'Ben Borrower', language: opts.borrowerLanguage ?? 'en' })
  const circle = await createCircle(t, ida, { name: 'Linden Street' })
  await addMember(t, ida, circle.id, ben)
  await setTimeZone(t, ben, opts.borrowerZone ?? null)
  await setTimeZone(t, ida, opts.lenderZone ?? null)
  return { ida, ben, circle }
}

describe('loan reminders', () => {
  it('remind the borrower the day before and on the day at 08:00 their time, across spring forward, once each', async () => {
    const { ida, ben, circle } = await lending({ borrowerLanguage: 'de', borrowerZone: 'Europe/Berlin' })
    // Due Monday 30 March 2026, 18:00 in Berlin; the day before is the daylight-saving switch.
    const { loan, item } = await insertLoan(t, {
      lender: ida,
      borrower: ben,
      circleId: circle.id,
      dueAt: '2026-03-30T16:00:00Z',
      itemName: 'Bohrmaschine',
    })
    await scanAt('2026-03-29T05:59:00Z') // 07:59 CEST
    expect(await loanEntries(ben, loan.id)).toEqual([])

    await scanAt('2026-03-29T06:00:00Z') // 08:00 CEST
    const [soon] = await loanEntries(ben, loan.id)
    expect(soon).toMatchObject({
      type: 'LOAN_DUE_SOON',
      data: {
        item: { id: item.id, name: 'Bohrmaschine' },
        lender: { name: 'Ida Lender' },
        dueAt: '2026-03-30T16:00:00.000Z',
      },
    })
    const [mail] = await reminderMails(ben)
    expect(mail).toMatchObject({ kind: 'loan-due-soon' })
    expect(mail!.subject).toBe(
      'Erinnerung: Gib Bohrmaschine bis Montag, 30. März 2026 um 18:00 an Ida Lender zurück',
    )
    expect(mail!.textBody).toContain(`http://localhost:3000/items/${item.id}`)
    expect(mail!.listUnsubscribe).toMatch(/\/api\/users\/unsubscribe\?token=/)

    // Scanning again, an hour later, sends nothing more.
    expect((await scanAt('2026-03-29T07:00:00Z')).sent).toBe(0)
    expect(await loanEntries(ben, loan.id)).toHaveLength(1)

    await scanAt('2026-03-30T06:00:00Z') // Monday 08:00 CEST
    expect((await loanEntries(ben, loan.id)).map((a) => a.type)).toEqual(['LOAN_DUE_TODAY', 'LOAN_DUE_SOON'])
    expect((await reminderMails(ben)).map((m) => m.kind)).toEqual(['loan-due-today', 'loan-due-soon'])
    // Nothing for the lender before the item is overdue.
    expect(await loanEntries(ida, loan.id)).toEqual([])
  })

  it('send overdue notices the day after, then weekly, at most three, and tell the lender once (autumn switch)', async () => {
    const { ida, ben, circle } = await lending({
      borrowerZone: 'Europe/Berlin',
      lenderZone: 'America/New_York',
    })
    // Due Saturday 24 October 2026, 18:00 CEST; Sunday is the switch back to CET.
    const { loan } = await insertLoan(t, {
      lender: ida,
      borrower: ben,
      circleId: circle.id,
      dueAt: '2026-10-24T16:00:00Z',
    })
    await scanAt('2026-10-25T06:59:00Z') // 07:59 CET
    expect((await loanEntries(ben, loan.id)).filter((a) => a.type === 'LOAN_OVERDUE')).toEqual([])
    await scanAt('2026-10-25T07:00:00Z') // 08:00 CET
    expect((await loanEntries(ben, loan.id))[0]).toMatchObject({
      type: 'LOAN_OVERDUE',
      data: { overdueNotice: 1 },
    })
    expect(await loanEntries(ida, loan.id)).toEqual([]) // 03:00 in New York
    await scanAt('2026-10-25T12:00:00Z') // 08:00 EDT
    expect((await loanEntries(ida, loan.id)).map((a) => a.type)).toEqual(['LOAN_OVERDUE_LENDER'])
    expect((await reminderMails(ida)).map((m) => m.kind)).toEqual(['loan-overdue-lender'])

    for (const day of ['2026-10-28', '2026-11-01', '2026-11-05', '2026-11-08', '2026-11-15', '2026-12-24'])
      await scanAt(`${day}T07:00:00Z`)
    const overdue = (await loanEntries(ben, loan.id)).filter((a) => a.type === 'LOAN_OVERDUE')
    expect(overdue.map((a) => (a.data as { overdueNotice: number }).overdueNotice)).toEqual([3, 2, 1])
    expect((await loanEntries(ida, loan.id)).map((a) => a.type)).toEqual(['LOAN_OVERDUE_LENDER'])
    // The lender's feed never holds the borrower's notices, nor the borrower's the lender's.
    expect((await loanEntries(ben, loan.id)).some((a) => a.type === 'LOAN_OVERDUE_LENDER')).toBe(false)
  })

  it('give a changed return date its own reminders, and none to a returned loan', async () => {
    const { ida, ben, circle } = await lending()
    const { loan } = await insertLoan(t, {
      lender: ida,
      borrower: ben,
      circleId: circle.id,
      dueAt: '2026-05-10T17:00:00Z',
    })
    await scanAt('2026-05-09T08:00:00Z')
    expect((await loanEntries(ben, loan.id)).map((a) => a.type)).toEqual(['LOAN_DUE_SOON'])
    // Extended by a week: the day before the new date reminds again.
    await setDueAt(t, loan.id, '2026-05-17T17:00:00Z')
    await scanAt('2026-05-10T08:00:00Z')
    expect(await loanEntries(ben, loan.id)).toHaveLength(1)
    await scanAt('2026-05-16T08:00:00Z')
    const entries = await loanEntries(ben, loan.id)
    expect(entries.map((a) => [a.type, (a.data as { dueAt: string }).dueAt])).toEqual([
      ['LOAN_DUE_SOON', '2026-05-17T17:00:00.000Z'],
      ['LOAN_DUE_SOON', '2026-05-10T17:00:00.000Z'],
    ])
    const claims = await t.database.db.select().from(loanReminders).where(eq(loanReminders.loanId, loan.id))
    expect(claims.map((c) => c.kind).sort()).toEqual(['BEFORE_1d', 'BEFORE_1d'])
    await setReturned(t, loan.id)
    await scanAt('2026-05-19T08:00:00Z')
    expect(await loanEntries(ben, loan.id)).toHaveLength(2)
  })

  it('follow the time zone the browser reports: on the day is 08:00 where the borrower is now', async () => {
    const { ida, ben, circle } = await lending()
    const zone = (timeZone: string) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/users/me/time-zone',
        headers: ben.auth,
        payload: { timeZone },
      })
    expect((await zone('Europe/Berlin')).json()).toEqual({ timeZone: 'Europe/Berlin' })
    const refused = await zone('Europe/Atlantis')
    expect(refused.statusCode).toBe(400)
    expect(refused.json()).toMatchObject({ message: 'Unknown time zone', key: 'invalidTimeZone' })
    const { loan } = await insertLoan(t, {
      lender: ida,
      borrower: ben,
      circleId: circle.id,
      dueAt: '2026-06-12T20:00:00Z',
    })
    // Ben flies to New York before the due day: 08:00 there is 12:00 UTC, not 06:00.
    expect((await zone('America/New_York')).statusCode).toBe(200)
    const { json } = await t.app.inject({ method: 'GET', url: '/api/users/me/time-zone', headers: ben.auth })
    expect(json()).toEqual({ timeZone: 'America/New_York' })
    await scanAt('2026-06-12T06:00:00Z')
    expect((await loanEntries(ben, loan.id)).filter((a) => a.type === 'LOAN_DUE_TODAY')).toEqual([])
    await scanAt('2026-06-12T12:00:00Z')
    expect((await loanEntries(ben, loan.id))[0]?.type).toBe('LOAN_DUE_TODAY')
  })

  it('write the feed entry but no email when the borrower switched reminders off; the unsubscribe link does it', async () => {
    const { ida, ben, circle } = await lending()
    const first = await insertLoan(t, {
      lender: ida,
      borrower: ben,
      circleId: circle.id,
      dueAt: '2026-07-10T17:00:00Z',
    })
    await scanAt('2026-07-09T08:00:00Z')
    const [mail] = await reminderMails(ben)
    const token = decodeURIComponent(/\/unsubscribe\?token=([^\s"&<]+)/.exec(mail!.textBody)![1]!)
    expect(token.split('.')[1]).toBe('loanReminders')
    const res = await t.app.inject({ method: 'POST', url: '/api/users/unsubscribe', payload: { token } })
    expect(res.statusCode, res.body).toBe(200)
    const prefs = await t.app.inject({ method: 'GET', url: '/api/users/me/notifications', headers: ben.auth })
    expect(prefs.json().notices).toMatchObject({
      loanReminders: false,
      borrowRequests: true,
      loanChanges: true,
    })

    const second = await insertLoan(t, {
      lender: ida,
      borrower: ben,
      circleId: circle.id,
      dueAt: '2026-07-20T17:00:00Z',
    })
    await scanAt('2026-07-19T08:00:00Z')
    expect((await loanEntries(ben, second.loan.id)).map((a) => a.type)).toEqual(['LOAN_DUE_SOON'])
    expect(await reminderMails(ben)).toHaveLength(1)
    expect(first.loan.id).not.toBe(second.loan.id)
  })

  it('arrive live on the dashboard', async () => {
    const { ida, ben, circle } = await lending()
    const url = await address()
    const socket = await connectAs(url, tokenOf(ben))
    try {
      const { loan } = await insertLoan(t, {
        lender: ida,
        borrower: ben,
        circleId: circle.id,
        dueAt: '2026-08-10T17:00:00Z',
      })
      await scanAt('2026-08-09T08:00:00Z')
      const live = await socket.next<TActivity>('new_activity', (a) => a.type === 'LOAN_DUE_SOON')
      expect(live).toMatchObject({ data: { loanId: loan.id } })
    } finally {
      socket.close()
    }
  })
})

describe('loan reminders written in batches (one JSON parameter per statement)', () => {
  it('keep quotes, backslashes, markup and emoji exactly, and the live entry is the stored one', async () => {
    const { ida, ben, circle } = await lending({ borrowerZone: 'Europe/Berlin' })
    const itemName = 'Bohr "Max" \\ <b>&</b> 🛠️ ünd \u00e9'
    const url = await address()
    const socket = await connectAs(url, tokenOf(ben))
    try {
      const { loan, item } = await insertLoan(t, {
        lender: ida,
        borrower: ben,
        circleId: circle.id,
        dueAt: '2026-05-20T16:00:00Z',
        itemName,
      })
      await scanAt('2026-05-19T06:00:00Z') // 08:00 CEST the day before
      const live = await socket.next<TActivity>('new_activity', (a) => a.type === 'LOAN_DUE_SOON')
      const [stored] = await loanEntries(ben, loan.id)
      expect(live).toEqual(stored)
      expect(stored).toMatchObject({ data: { item: { id: item.id, name: itemName } } })
      expect(stored!.title).toContain(itemName)

      const [mail] = await reminderMails(ben)
      const unsubscribeUrl = /http:\/\/localhost:3000\/unsubscribe\?token=\S+/.exec(mail!.textBody)![0]
      const expected = loanReminderEmail('en', {
        kind: 'due-soon',
        name: 'Ben Borrower',
        itemName,
        lenderName: 'Ida Lender',
        borrowerName: 'Ben Borrower',
        due: formatDue(new Date('2026-05-20T16:00:00Z'), 'en', 'Europe/Berlin'),
        link: `http://localhost:3000/items/${item.id}`,
        unsubscribeUrl,
      })
      expect(mail).toMatchObject({
        kind: expected.kind,
        subject: expected.subject,
        textBody: expected.text,
        htmlBody: expected.html,
        replyTo: null,
      })
      expect(mail!.listUnsubscribe).toBe(unsubscribeUrl.replace('/unsubscribe?', '/api/users/unsubscribe?'))
    } finally {
      socket.close()
    }
  })

  it('find a claim again for a due date stored with microseconds, so the next scan writes nothing', async () => {
    const { ida, ben, circle } = await lending()
    const { loan } = await insertLoan(t, {
      lender: ida,
      borrower: ben,
      circleId: circle.id,
      dueAt: '2026-06-10T17:00:00Z',
    })
    await t.database.db.execute(
      sql`update loans set due_at = '2026-06-10T17:00:00.123456Z' where id = ${loan.id}`,
    )
    await scanAt('2026-06-09T08:00:00Z')
    expect((await loanEntries(ben, loan.id)).map((a) => a.type)).toEqual(['LOAN_DUE_SOON'])
    const [claimed] = await t.database.db
      .select()
      .from(loanReminders)
      .where(eq(loanReminders.loanId, loan.id))
    expect(claimed!.dueAt.toISOString()).toBe('2026-06-10T17:00:00.123Z')
    const again = await scanAt('2026-06-09T09:00:00Z')
    expect(again.loans).toBeGreaterThan(0)
    expect(again.sent).toBe(0)
    expect(await loanEntries(ben, loan.id)).toHaveLength(1)
  })
})

describe('loan reminders as push notices (issue 27)', () => {
  it('reach the borrower’s device from the scan; switched off for push, they do not', async () => {
    const push = await startPushEndpoint()
    try {
      const { ida, ben, circle } = await lending()
      const device = deviceKeys()
      const endpoint = push.endpointUrl()
      const subscribe = await t.app.inject({
        method: 'POST',
        url: '/api/push/subscriptions',
        headers: ben.auth,
        payload: { endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
      })
      expect(subscribe.statusCode, subscribe.body).toBe(200)
      const { item } = await insertLoan(t, {
        lender: ida,
        borrower: ben,
        circleId: circle.id,
        dueAt: '2026-05-12T16:00:00Z',
        itemName: 'Tent',
      })
      await scanAt('2026-05-11T08:00:00Z')
      await vi.waitFor(() => expect(push.received).toHaveLength(1), { timeout: 5000 })
      const notice = JSON.parse(device.decrypt(push.received[0]!.body))
      expect(notice.url).toBe(`/items/${item.id}`)
      expect(notice.title).toContain('Tent')

      await t.app.inject({
        method: 'PUT',
        url: '/api/users/me/notifications',
        headers: ben.auth,
        payload: {
          handoverRequests: true,
          handoverAnswers: true,
          invitations: true,
          push: { loanReminders: false },
        },
      })
      await insertLoan(t, {
        lender: ida,
        borrower: ben,
        circleId: circle.id,
        dueAt: '2026-05-13T16:00:00Z',
        itemName: 'Saw',
      })
      await scanAt('2026-05-12T08:00:00Z')
      // The email of the same scan is the sentinel: queued in the same transaction as a push would be.
      expect((await reminderMails(ben)).length).toBeGreaterThanOrEqual(2)
      const [sub] = await t.database.db
        .select()
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.endpoint, endpoint))
      expect(
        await t.database.db.select().from(pushOutbox).where(eq(pushOutbox.subscriptionId, sub!.id)),
      ).toHaveLength(1)
    } finally {
      await push.close()
    }
  })
})

describe('notice preferences with the lending kinds', () => {
  it('keep accepting the three-field body and leave the lending kinds as they are', async () => {
    const ann = await signedIn(t)
    const put = (payload: object) =>
      t.app.inject({ method: 'PUT', url: '/api/users/me/notifications', headers: ann.auth, payload })
    const all = { handoverRequests: true, handoverAnswers: true, invitations: true }
    // Issue 27: the push switches come along, untouched by these bodies.
    const push = { push: { ...all, loanReminders: true } }
    expect((await put({ ...all, loanReminders: false, loanChanges: false })).json().notices).toEqual({
      ...all,
      loanReminders: false,
      borrowRequests: true,
      loanChanges: false,
      ...push,
    })
    const old = await put({ ...all, invitations: false })
    expect(old.statusCode).toBe(200)
    expect(old.json().notices).toEqual({
      ...all,
      invitations: false,
      loanReminders: false,
      borrowRequests: true,
      loanChanges: false,
      ...push,
    })
    expect((await put({ ...all, loanReminders: 'no' })).statusCode).toBe(400)
  })
})

describe.runIf(process.env.DATABASE_URL)('two instances on one PostgreSQL', () => {
  it('send each reminder once when both scan at the same moment, and again after a restart nothing', async () => {
    const other = await secondInstance(t, 4, {}, { clock: clock.now })
    try {
      const { ida, ben, circle } = await lending()
      const due = Array.from({ length: 30 }, (_, i) => new Date(Date.UTC(2026, 8, 10, 17, i)).toISOString())
      const made = []
      for (const dueAt of due)
        made.push(await insertLoan(t, { lender: ida, borrower: ben, circleId: circle.id, dueAt }))
      clock.set('2026-09-12T08:00:00Z') // the first overdue notice and the lender's, for all 30
      const [a, b] = await Promise.all([t.app.loanReminders.scan(), other.app.loanReminders.scan()])
      expect(a.sent + b.sent).toBe(60)
      const entries = await t.database.db.select().from(activities).where(eq(activities.userId, ben.user.id))
      expect(entries.filter((x) => x.type === 'LOAN_OVERDUE')).toHaveLength(30)
      expect((await reminderMails(ben)).filter((m) => m.kind === 'loan-overdue')).toHaveLength(30)
      // A restarted instance (a new app on the same database) finds every reminder claimed.
      const restarted = await secondInstance(t, 2, {}, { clock: clock.now })
      try {
        expect((await restarted.app.loanReminders.scan()).sent).toBe(0)
      } finally {
        await restarted.close()
      }
    } finally {
      await other.close()
    }
  })
  it("send a scan's notices for many users in a few adapter messages, each live to its user once, in order, on either instance", async () => {
    const other = await secondInstance(t, 4, {}, { clock: clock.now })
    const listener = new pg.Client({ connectionString: t.database.pool!.options.connectionString })
    const sockets: Listener[] = []
    try {
      const urls = [await address(), await listen(other)]
      // Ten lenders and ten borrowers, three loans each, due the same day.
      const pairs = []
      for (let i = 0; i < 10; i++) pairs.push(await lending())
      for (const { ida, ben, circle } of pairs) {
        for (const minute of [0, 1, 2]) {
          const dueAt = new Date(Date.UTC(2026, 9, 10, 17, minute)).toISOString()
          await insertLoan(t, { lender: ida, borrower: ben, circleId: circle.id, dueAt })
        }
      }
      const users = pairs.flatMap(({ ida, ben }) => [ida, ben])
      // The last borrower is away during the scan and comes back on the other instance.
      const away = users.pop()!
      const before = await connectAs(urls[0]!, tokenOf(away))
      const { lastEventId } = await before.next<{ lastEventId: number }>('connected')
      before.close()
      for (const [i, who] of users.entries()) sockets.push(await connectAs(urls[i % 2]!, tokenOf(who)))

      await listener.connect()
      const notifications: string[] = []
      listener.on('notification', (n) => notifications.push(n.payload ?? ''))
      await listener.query('LISTEN "socket.io#/"')

      clock.set('2026-10-12T08:00:00Z') // the first overdue notice and the lender's, for all 30 loans
      const { sent } = await t.app.loanReminders.scan()
      expect(sent).toBeGreaterThanOrEqual(60)

      const stored = await t.database.db
        .select({ id: activities.id, userId: activities.userId })
        .from(activities)
        .where(
          and(
            inArray(
              activities.userId,
              [...users, away].map((u) => u.user.id),
            ),
            like(activities.type, 'LOAN_%'),
          ),
        )
      expect(stored).toHaveLength(60)
      const expected = (who: SignedIn) =>
        stored
          .filter((a) => a.userId === who.user.id)
          .map((a) => a.id)
          .sort()
      for (const [i, who] of users.entries()) {
        const socket = sockets[i]!
        for (const id of expected(who)) await socket.next<TActivity>('new_activity', (a) => a.id === id)
        const live = socket.received.filter(
          (r) => r.event === 'new_activity' && (r.payload as TActivity).type.startsWith('LOAN_'),
        )
        // Exactly the user's own, each once, in the order of their event ids.
        expect(live.map((r) => (r.payload as TActivity).id).sort()).toEqual(expected(who))
        const ids = live.map((r) => r.id!)
        expect(ids).toEqual([...ids].sort((a, b) => a - b))
      }
      // Reconnecting to the other instance, the away borrower gets its three from the event log.
      const back = await connectAs(urls[1]!, tokenOf(away), { lastEventId, firstEventId: lastEventId })
      sockets.push(back)
      await back.next('connected')
      const replayed = back.received.filter((r) => r.event === 'new_activity')
      expect(replayed.map((r) => (r.payload as TActivity).id).sort()).toEqual(expected(away))

      // The other instance heard the scan's notices in a few messages, none through the attachments
      // table, not in a message per notice.
      const carrying = notifications.filter((n) => n.includes('new_activity'))
      expect(carrying.length).toBeGreaterThan(0)
      expect(carrying.length).toBeLessThanOrEqual(Math.ceil(sent / 8))
      expect(notifications.filter((n) => n.includes('attachmentId'))).toEqual([])
      for (const n of carrying) expect(Buffer.byteLength(n)).toBeLessThan(8000)
    } finally {
      for (const socket of sockets) socket.close()
      await listener.end()
      await other.close()
    }
  })
})
