// Issue 26: the lending rules read "now" from the app's clock (BuildAppOptions.clock), as the reminders
// do, so these tests move time instead of sleeping (docs/decisions/0047, section of 2026-11-26). The clock
// runs years ahead of the real one: a date in the clock's past is still in the real future, so a rule that
// read the real time would let it through. And the reminders around a party's account deletion
// (docs/decisions/0049, section of 2026-11-26).
import { MESSAGES, type TActivity, type TLoan } from '@circles/shared'
import { and, eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { activities, loanReminders, users } from '../src/db/schema'
import { addMember, createCircle, type SignedIn, signedIn } from './support/circles'
import { DEFAULT_PASSWORD } from './support/factories'
import { answerHandover, createItem, requestHandover } from './support/handovers'
import { testClock } from './support/loans'
import { createTestApp, type TestApp } from './support/test-app'

const START = '2030-03-02T09:00:00.000Z'
const clock = testClock(START)
let t: TestApp
beforeAll(async () => {
  t = await createTestApp({ clock: clock.now, env: { PLAN_LIMITS: 'off' } })
})
afterAll(() => t.close())

const HOUR = 3_600_000
const DAY = 24 * HOUR
const at = (base: string, ms: number) => new Date(new Date(base).getTime() + ms).toISOString()

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
const call = (who: SignedIn, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who.auth, ...(payload ? { payload } : {}) })

async function world() {
  clock.set(START)
  const lena = await signedIn(t, { name: 'Lena Lender' })
  const ben = await signedIn(t, { name: 'Ben Borrower' })
  const olga = await signedIn(t, { name: 'Olga Other' })
  const circle = await createCircle(t, lena)
  for (const who of [ben, olga]) await addMember(t, lena, circle.id, who)
  const item = await createItem(t, lena, circle.id, 'Drill')
  return { lena, ben, olga, circle, item }
}
type World = Awaited<ReturnType<typeof world>>

/** Lena lends the drill to Ben until `dueAt`; Ben confirms. */
async function lend(w: World, dueAt: string): Promise<TLoan> {
  const request = await requestHandover(t, w.lena, {
    itemId: w.item.id,
    receiverId: w.ben.user.id,
    kind: 'LOAN',
    dueAt,
  })
  expect(request.statusCode, request.body).toBe(201)
  const res = await answerHandover(t, w.ben, request.json().handover.id, 'CONFIRMED')
  expect(res.statusCode, res.body).toBe(200)
  return (await call(w.lena, 'GET', `/api/loans/${res.json().handover.loanId}`)).json().loan
}

const loansOf = async (who: SignedIn, role: 'borrowed' | 'lent'): Promise<TLoan[]> =>
  (await call(who, 'GET', `/api/loans?role=${role}&status=all`)).json().loans
const itemLoan = async (who: SignedIn, itemId: string) =>
  (await call(who, 'GET', `/api/items/${itemId}`)).json().item.lending.loan

describe('the lending rules on the app clock', () => {
  it('a loan turns overdue when the clock passes its date: GET /api/loans, the loan and the item say so', async () => {
    const w = await world()
    const dueAt = at(START, 2 * DAY)
    const loan = await lend(w, dueAt)
    expect(loan.startedAt).toBe(START)
    expect(loan.overdue).toBe(false)
    expect((await itemLoan(w.olga, w.item.id)).overdue).toBe(false)

    clock.set(at(dueAt, -1000))
    expect((await loansOf(w.ben, 'borrowed'))[0]).toMatchObject({ id: loan.id, overdue: false })

    clock.set(at(dueAt, 60_000))
    expect((await loansOf(w.ben, 'borrowed'))[0]).toMatchObject({ id: loan.id, overdue: true })
    expect((await loansOf(w.lena, 'lent'))[0]).toMatchObject({ id: loan.id, overdue: true })
    expect((await call(w.olga, 'GET', `/api/loans/${loan.id}`)).json().loan.overdue).toBe(true)
    expect(await itemLoan(w.olga, w.item.id)).toMatchObject({ id: loan.id, overdue: true })
    const mine = (await call(w.lena, 'GET', '/api/items/my-items')).json().items
    expect(mine[0].lending.loan).toMatchObject({ id: loan.id, overdue: true })

    // Returned a day late: the return's time is the clock's, and a returned loan is not overdue.
    const returnedAt = at(dueAt, DAY)
    clock.set(returnedAt)
    const started = await call(w.ben, 'POST', `/api/loans/${loan.id}/return`, {})
    const handoverId = started.json().loan.pendingReturn.handoverId as string
    expect((await answerHandover(t, w.lena, handoverId, 'CONFIRMED')).statusCode).toBe(200)
    expect((await call(w.lena, 'GET', `/api/loans/${loan.id}`)).json().loan).toMatchObject({
      status: 'RETURNED',
      returnedAt,
      overdue: false,
    })
    expect(await itemLoan(w.olga, w.item.id)).toBeNull()
  })

  it('a date is in the future or the past by the clock: requests, changes, wishes, asks and late confirmations', async () => {
    const w = await world()
    // An hour before the clock's now (years ahead of the real time).
    const past = at(START, -HOUR)
    const refused = await requestHandover(t, w.lena, {
      itemId: w.item.id,
      receiverId: w.ben.user.id,
      kind: 'LOAN',
      dueAt: past,
    })
    expect([refused.statusCode, refused.json().message]).toEqual([400, MESSAGES.loanDueAtPast])

    // A LOAN request confirmed after its date passed is refused.
    const late = await requestHandover(t, w.lena, {
      itemId: w.item.id,
      receiverId: w.ben.user.id,
      kind: 'LOAN',
      dueAt: at(START, DAY),
    })
    expect(late.statusCode).toBe(201)
    clock.set(at(START, DAY + 60_000))
    const confirmed = await answerHandover(t, w.ben, late.json().handover.id, 'CONFIRMED')
    expect([confirmed.statusCode, confirmed.json().message]).toEqual([409, MESSAGES.loanDueAtPast])
    expect((await answerHandover(t, w.ben, late.json().handover.id, 'REJECTED')).statusCode).toBe(200)

    clock.set(START)
    const dueAt = at(START, 2 * DAY)
    const loan = await lend(w, dueAt)
    clock.set(at(START, 3 * DAY)) // a day overdue
    const inPast = at(START, 2.5 * DAY) // later than the loan's date, but before the clock's now
    const patched = await call(w.lena, 'PATCH', `/api/loans/${loan.id}`, { dueAt: inPast })
    expect([patched.statusCode, patched.json().message]).toEqual([400, MESSAGES.loanDueAtPast])
    const wish = await call(w.ben, 'POST', `/api/loans/${loan.id}/extensions`, { dueAt: inPast })
    expect([wish.statusCode, wish.json().message]).toEqual([400, MESSAGES.loanDueAtPast])
    const asked = await call(w.olga, 'POST', `/api/items/${w.item.id}/borrow-requests`, {
      wishedUntil: inPast,
      message: null,
    })
    expect([asked.statusCode, asked.json().message]).toEqual([400, MESSAGES.borrowWishedUntilPast])

    // A wish made now, accepted after its own date passed, is refused; the loan keeps its date.
    const later = at(START, 4 * DAY)
    const made = await call(w.ben, 'POST', `/api/loans/${loan.id}/extensions`, { dueAt: later })
    expect(made.statusCode, made.body).toBe(201)
    expect(made.json().extension.createdAt).toBe(at(START, 3 * DAY))
    clock.set(at(START, 4 * DAY + 60_000))
    const accepted = await call(
      w.lena,
      'PUT',
      `/api/loans/${loan.id}/extensions/${made.json().extension.id}`,
      { status: 'ACCEPTED' },
    )
    expect([accepted.statusCode, accepted.json().message]).toEqual([400, MESSAGES.loanDueAtPast])
    expect((await call(w.lena, 'GET', `/api/loans/${loan.id}`)).json().loan.dueAt).toBe(dueAt)
  })
})

/* ------------------------------------------------------------ reminders around account deletion */

const deleteAccount = (who: SignedIn) =>
  call(who, 'POST', '/api/users/me/delete', { password: DEFAULT_PASSWORD })

/** The loan reminder feed entries a person has (read from the table: a deleted account has no session). */
async function reminderEntries(userId: string): Promise<TActivity['type'][]> {
  const rows = await t.database.db
    .select({ type: activities.type })
    .from(activities)
    .where(
      and(
        eq(activities.userId, userId),
        inArray(activities.type, ['LOAN_DUE_SOON', 'LOAN_DUE_TODAY', 'LOAN_OVERDUE', 'LOAN_OVERDUE_LENDER']),
      ),
    )
  return rows.map((r) => r.type).sort()
}
/** The reminder emails queued for an address (not the loan-changed notices of the lending steps). */
const reminderMails = async (email: string) =>
  (await t.emailsTo(email))
    .map((m) => m.kind)
    .filter((kind) => /^loan-(due-soon|due-today|overdue|overdue-lender)$/.test(kind))
const emailOf = async (userId: string) =>
  (await t.database.db.select({ email: users.email }).from(users).where(eq(users.id, userId)))[0]!.email

/** Scans at each reminder's moment (UTC: nobody set a zone): the day before, on the day, then overdue. */
async function scanThrough(dueAt: string) {
  const day = dueAt.slice(0, 10)
  for (const moment of [
    at(`${day}T08:00:00.000Z`, -DAY),
    `${day}T08:00:00.000Z`,
    at(`${day}T08:00:00.000Z`, DAY),
    at(`${day}T08:00:00.000Z`, 8 * DAY),
    at(`${day}T08:00:00.000Z`, 15 * DAY),
  ]) {
    clock.set(moment)
    await t.app.loanReminders.scan()
  }
}

describe('reminders when a party deletes their account (docs/decisions/0047, 0049)', () => {
  it('a deleted borrower gets none (due soon, today, overdue); the lender is told once it is overdue', async () => {
    const w = await world()
    const dueAt = '2030-03-05T18:00:00.000Z'
    const loan = await lend(w, dueAt)
    const benEmail = w.ben.user.email
    expect((await deleteAccount(w.ben)).statusCode).toBe(200)
    expect((await call(w.lena, 'GET', `/api/loans/${loan.id}`)).json().loan).toMatchObject({
      status: 'ACTIVE',
      recallReason: 'LEFT',
    })
    const placeholder = await emailOf(w.ben.user.id)
    expect(placeholder).not.toBe(benEmail)

    await scanThrough(dueAt)
    expect(await reminderEntries(w.ben.user.id)).toEqual([])
    expect(await reminderMails(benEmail)).toEqual([])
    expect(await reminderMails(placeholder)).toEqual([])
    const claimed = await t.database.db
      .select({ kind: loanReminders.kind })
      .from(loanReminders)
      .where(eq(loanReminders.loanId, loan.id))
    expect(claimed.map((c) => c.kind)).toEqual(['LENDER_OVERDUE'])
    // ADR 0049: the lender hears once, the day after the due day; they record the return when it is back.
    expect(await reminderEntries(w.lena.user.id)).toEqual(['LOAN_OVERDUE_LENDER'])
    expect(await reminderMails(w.lena.user.email)).toEqual(['loan-overdue-lender'])
  })

  it('a deleted lender: the lent item and its loan go with the account; the borrower is not reminded', async () => {
    const w = await world()
    const dueAt = '2030-03-05T18:00:00.000Z'
    await lend(w, dueAt)
    expect((await deleteAccount(w.lena)).statusCode).toBe(200)
    await scanThrough(dueAt)
    expect(await reminderEntries(w.ben.user.id)).toEqual([])
    expect(await reminderMails(w.ben.user.email)).toEqual([])
  })

  it('a lender who only left the circle still wants the thing back: the borrower is reminded (ADR 0047)', async () => {
    const w = await world()
    // Lena hands the circle to Olga, then leaves; the loan is recalled, the drill is still hers.
    const handed = await call(w.lena, 'POST', `/api/circles/${w.circle.id}/transfer`, {
      userId: w.olga.user.id,
    })
    expect(handed.statusCode, handed.body).toBe(200)
    const dueAt = '2030-03-05T18:00:00.000Z'
    const loan = await lend(w, dueAt)
    expect((await call(w.lena, 'POST', `/api/circles/${w.circle.id}/leave`)).statusCode).toBe(200)
    expect((await call(w.ben, 'GET', `/api/loans/${loan.id}`)).json().loan.recallReason).toBe('LEFT')
    await scanThrough(dueAt)
    expect(await reminderEntries(w.ben.user.id)).toEqual([
      'LOAN_DUE_SOON',
      'LOAN_DUE_TODAY',
      'LOAN_OVERDUE',
      'LOAN_OVERDUE',
      'LOAN_OVERDUE',
    ])
    expect(await reminderEntries(w.lena.user.id)).toEqual(['LOAN_OVERDUE_LENDER'])
  })
})
