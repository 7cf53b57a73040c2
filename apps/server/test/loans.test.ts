// Issue 26 (docs/decisions/0047): the loan lifecycle on the server. A LOAN handover's confirmation starts
// a loan (the lender stays the owner) and appends a v4 LOAN block; a RETURN handover ends it; extensions
// and the lender's change of date append LOAN_CHANGE blocks; a party's departure recalls the loan.
import {
  openCheckpoint,
  parseVerifierKey,
  verifyConsistency,
  verifyDataExport,
  verifyExport,
} from '@circles/ledger'
import { eq } from 'drizzle-orm'
import { strFromU8, unzipSync } from 'fflate'
import { MESSAGES, type TBlock, type THandover, type TLoan } from '@circles/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, createCircle, type SignedIn, signedIn } from './support/circles'
import { answerHandover, createItem, requestHandover } from './support/handovers'
import { loanExtensions } from '../src/db/schema'
import { DEFAULT_PASSWORD } from './support/factories'
import { connectAs, listen, tokenOf } from './support/sockets'
import { createTestApp, type TestApp } from './support/test-app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const DAY = 24 * 60 * 60 * 1000
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString()

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
const call = (who: SignedIn | null, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who?.auth ?? {}, ...(payload ? { payload } : {}) })

/** A circle with its admin, a lender who owns a drill, a borrower and another member. */
async function circleWithItem() {
  const admin = await signedIn(t, { name: 'Ada Admin' })
  const lender = await signedIn(t, { name: 'Lena Lender' })
  const borrower = await signedIn(t, { name: 'Ben Borrower' })
  const other = await signedIn(t, { name: 'Olga Other' })
  const circle = await createCircle(t, admin)
  for (const who of [lender, borrower, other]) await addMember(t, admin, circle.id, who)
  const item = await createItem(t, lender, circle.id, 'Drill')
  return { admin, lender, borrower, other, circle, item }
}
type World = Awaited<ReturnType<typeof circleWithItem>>

async function lendRequest(w: World, dueAt = inDays(7), extra: object = {}): Promise<THandover> {
  const res = await requestHandover(t, w.lender, {
    itemId: w.item.id,
    receiverId: w.borrower.user.id,
    kind: 'LOAN',
    dueAt,
    ...extra,
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json().handover
}

/** Lends the drill to the borrower and confirms: an ACTIVE loan. */
async function lend(w: World, dueAt = inDays(7)): Promise<TLoan> {
  const request = await lendRequest(w, dueAt)
  const res = await answerHandover(t, w.borrower, request.id, 'CONFIRMED')
  expect(res.statusCode, res.body).toBe(200)
  const loanId = res.json().handover.loanId as string
  expect(loanId).toBeTruthy()
  return (await call(w.lender, 'GET', `/api/loans/${loanId}`)).json().loan
}

const blocksOf = async (who: SignedIn, itemId: string): Promise<TBlock[]> =>
  (await call(who, 'GET', `/api/blockchain/item/${itemId}`)).json().blocks

async function chainHolds(who: SignedIn, circleId: string, size: number) {
  const verify = (await call(who, 'GET', `/api/blockchain/verify/${circleId}`)).json()
  expect(verify).toMatchObject({ valid: true, blockCount: size, failingBlocks: [] })
  const exported = await call(who, 'GET', `/api/ledger/${circleId}/export`)
  expect(verifyExport(exported.body)).toMatchObject({ valid: true, blockCount: size, checkpoint: { size } })
  // Each signed tree head after a loan step extends the one before it (no fork, no rewrite).
  const known = ((await call(null, 'GET', '/api/ledger/keys')).json().keys as string[]).map(parseVerifierKey)
  const rootOf = (note: string) => openCheckpoint(note, known).checkpoint.rootHash
  const fromHex = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'))
  for (let from = 1; from < size; from++) {
    const proof = (
      await call(who, 'GET', `/api/ledger/${circleId}/proof/consistency?from=${from}&to=${size}`)
    ).json()
    const older = (
      await call(who, 'GET', `/api/ledger/${circleId}/proof/inclusion?index=0&size=${from}`)
    ).json()
    expect(
      verifyConsistency(
        from,
        size,
        rootOf(older.checkpoint),
        rootOf(proof.checkpoint),
        proof.proof.map(fromHex),
      ),
    ).toBe(true)
  }
}

describe('lending', () => {
  it('a LOAN request shows its date; confirming starts the loan, the lender stays the owner, a LOAN block is appended', async () => {
    const w = await circleWithItem()
    const dueAt = inDays(7)
    const request = await lendRequest(w, dueAt, { completeOwnership: true })
    expect(request).toMatchObject({ kind: 'LOAN', status: 'PENDING', completeOwnership: false, loanId: null })
    expect(new Date(request.dueAt!).toISOString()).toBe(new Date(dueAt).toISOString())
    // The receiver's email and feed entry say it is a loan, with its date.
    const [mail] = await t.emailsTo(w.borrower.user.email)
    expect(mail!.subject).toBe('Lena Lender wants to lend you Drill')
    expect(mail!.textBody).toContain('would like to lend you Drill until')
    const feed = (await call(w.borrower, 'GET', '/api/activities/recent')).json().activities
    expect(feed[0]).toMatchObject({ type: 'PENDING_HANDOVER', title: 'Lena Lender wants to lend you Drill' })
    expect(feed[0].data).toMatchObject({ kind: 'LOAN' })

    const confirmed = await answerHandover(t, w.borrower, request.id, 'CONFIRMED')
    expect(confirmed.statusCode, confirmed.body).toBe(200)
    const { handover, receipt } = confirmed.json()
    expect(handover).toMatchObject({ kind: 'LOAN', status: 'CONFIRMED' })
    expect(receipt.index).toBe(0)
    const loan: TLoan = (await call(w.borrower, 'GET', `/api/loans/${handover.loanId}`)).json().loan
    expect(loan).toMatchObject({
      itemId: w.item.id,
      circleId: w.circle.id,
      item: { name: 'Drill' },
      lender: { id: w.lender.user.id, name: 'Lena Lender' },
      borrower: { id: w.borrower.user.id, name: 'Ben Borrower' },
      status: 'ACTIVE',
      overdue: false,
      returnedAt: null,
      recalledAt: null,
      pendingReturn: null,
      pendingExtension: null,
    })
    expect(loan.dueAt).toBe(new Date(dueAt).toISOString())

    // The lender stays the owner; the item says who has it until when, in the detail and the lists.
    const item = (await call(w.other, 'GET', `/api/items/${w.item.id}`)).json().item
    expect(item).toMatchObject({ ownerId: w.lender.user.id, ownership: 'COMPLETE', locked: false })
    expect(item.lending).toEqual({
      loan: {
        id: loan.id,
        borrower: { id: w.borrower.user.id, name: 'Ben Borrower' },
        dueAt: loan.dueAt,
        overdue: false,
        recalled: false,
      },
      queueLength: 0,
    })
    const listed = (await call(w.other, 'GET', `/api/items/circle/${w.circle.id}`)).json().items
    expect(listed.find((i: { id: string }) => i.id === w.item.id).lending.loan.id).toBe(loan.id)
    const onLoan = (await call(w.other, 'GET', `/api/items?state=on-loan&limit=10`)).json().items
    expect(onLoan.map((i: { id: string }) => i.id)).toEqual([w.item.id])
    const available = (await call(w.other, 'GET', `/api/items?state=available&limit=10`)).json().items
    expect(available.map((i: { id: string }) => i.id)).not.toContain(w.item.id)

    const [block] = await blocksOf(w.other, w.item.id)
    expect(block!.content).toMatchObject({
      v: 5,
      kind: 'LOAN',
      handoverId: request.id,
      from: { id: w.lender.user.id },
      to: { id: w.borrower.user.id },
      ownership: 'COMPLETE',
      reason: null,
      loan: { id: loan.id, dueAt: loan.dueAt },
    })
    expect(block!.names.to.name).toBe('Ben Borrower')
    await chainHolds(w.other, w.circle.id, 1)

    // Both hear of it in the feed; the lender by email (loanChanges).
    for (const who of [w.lender, w.borrower]) {
      const entries = (await call(who, 'GET', '/api/activities/recent')).json().activities
      expect(entries[0]).toMatchObject({ type: 'LOAN_STARTED', data: { loanId: loan.id, dueAt: loan.dueAt } })
    }
    const [started] = await t.emailsTo(w.lender.user.email)
    expect(started!.subject).toMatch(/^Drill is lent to Ben Borrower until /)

    // GET /api/loans by role.
    const borrowed = (await call(w.borrower, 'GET', '/api/loans?role=borrowed')).json().loans
    expect(borrowed.map((l: TLoan) => l.id)).toEqual([loan.id])
    expect((await call(w.borrower, 'GET', '/api/loans?role=lent')).json().loans).toEqual([])
    expect(
      (await call(w.lender, 'GET', '/api/loans?role=lent')).json().loans.map((l: TLoan) => l.id),
    ).toEqual([loan.id])
  })

  it('refuses a LOAN without a future date, of a partial item, or to a non-member, with the reason', async () => {
    const w = await circleWithItem()
    const ask = (payload: object) =>
      requestHandover(t, w.lender, {
        itemId: w.item.id,
        receiverId: w.borrower.user.id,
        kind: 'LOAN',
        ...payload,
      })
    let res = await ask({})
    expect([res.statusCode, res.json().message]).toEqual([400, MESSAGES.loanDueAtRequired])
    res = await ask({ dueAt: new Date(Date.now() - 60_000).toISOString() })
    expect([res.statusCode, res.json().message]).toEqual([400, MESSAGES.loanDueAtPast])
    res = await ask({ dueAt: 'tomorrow' })
    expect([res.statusCode, res.json().message]).toEqual([400, MESSAGES.loanDueAtInvalid])
    const outsider = await signedIn(t)
    res = await requestHandover(t, w.lender, {
      itemId: w.item.id,
      receiverId: outsider.user.id,
      kind: 'LOAN',
      dueAt: inDays(3),
    })
    expect([res.statusCode, res.json().message]).toEqual([400, MESSAGES.handoverReceiverNotMember])
    // Someone who holds the item partially does not lend it.
    const partial = await requestHandover(t, w.lender, { itemId: w.item.id, receiverId: w.other.user.id })
    expect((await answerHandover(t, w.other, partial.json().handover.id, 'CONFIRMED')).statusCode).toBe(200)
    res = await requestHandover(t, w.other, {
      itemId: w.item.id,
      receiverId: w.borrower.user.id,
      kind: 'LOAN',
      dueAt: inDays(3),
    })
    expect([res.statusCode, res.json().message]).toEqual([403, MESSAGES.loanNeedsCompleteOwnership])
  })

  it('while it is out: no handover, no second loan, no edit, no delete, each with the true reason', async () => {
    const w = await circleWithItem()
    const loan = await lend(w)
    const refusals: [SignedIn, Method, string, object | undefined, number, string][] = [
      [
        w.lender,
        'POST',
        '/api/handovers',
        { itemId: w.item.id, receiverId: w.other.user.id },
        409,
        MESSAGES.itemOnLoan,
      ],
      [
        w.lender,
        'POST',
        '/api/handovers',
        { itemId: w.item.id, receiverId: w.other.user.id, kind: 'LOAN', dueAt: inDays(9) },
        409,
        MESSAGES.itemOnLoan,
      ],
      [w.lender, 'PUT', `/api/items/${w.item.id}`, { name: 'Drill 2' }, 409, MESSAGES.itemOnLoan],
      [w.lender, 'DELETE', `/api/items/${w.item.id}`, undefined, 409, MESSAGES.itemOnLoan],
      [w.admin, 'PUT', `/api/items/${w.item.id}`, { name: 'Drill 2' }, 409, MESSAGES.itemOnLoan],
      [
        w.borrower,
        'POST',
        '/api/handovers',
        { itemId: w.item.id, receiverId: w.other.user.id, completeOwnership: true },
        403,
        MESSAGES.loanBorrowerCannotHandOn,
      ],
      [
        w.borrower,
        'DELETE',
        `/api/items/${w.item.id}`,
        undefined,
        403,
        MESSAGES.itemDeleteNeedsCompleteOwnership,
      ],
      [w.borrower, 'PUT', `/api/items/${w.item.id}`, { name: 'Mine' }, 403, MESSAGES.itemEditForbidden],
    ]
    for (const [who, method, url, payload, status, message] of refusals) {
      const res = await call(who, method, url, payload)
      expect([res.statusCode, res.json().message], `${method} ${url}`).toEqual([status, message])
    }
    // The refusal names the loan, so the page can say "On loan to Ben until …".
    const res = await call(w.lender, 'DELETE', `/api/items/${w.item.id}`)
    expect(res.json().loan).toMatchObject({
      id: loan.id,
      borrower: { name: 'Ben Borrower' },
      dueAt: loan.dueAt,
    })
  })

  it('the borrower starts a return, the lender confirms: RETURNED, a RETURN block, the item free again', async () => {
    const w = await circleWithItem()
    const loan = await lend(w)
    const started = await call(w.borrower, 'POST', `/api/loans/${loan.id}/return`, { comment: 'Thanks!' })
    expect(started.statusCode, started.body).toBe(200)
    expect(started.json().message).toBe(MESSAGES.loanReturnStarted)
    const pending = started.json().loan.pendingReturn
    expect(pending).toMatchObject({ startedBy: 'BORROWER' })
    // A second return while one waits is refused.
    const again = await call(w.lender, 'POST', `/api/loans/${loan.id}/return`, {})
    expect([again.statusCode, again.json().message]).toEqual([409, MESSAGES.loanReturnPending])
    const handovers = (await call(w.lender, 'GET', `/api/handovers/item/${w.item.id}`)).json().handovers
    expect(handovers[0]).toMatchObject({
      id: pending.handoverId,
      kind: 'RETURN',
      loanId: loan.id,
      senderId: w.borrower.user.id,
      receiverId: w.lender.user.id,
      status: 'PENDING',
      requesterComment: 'Thanks!',
    })
    const entries = (await call(w.lender, 'GET', '/api/activities/recent')).json().activities
    expect(entries[0]).toMatchObject({ type: 'LOAN_RETURN_REQUESTED', data: { startedBy: 'BORROWER' } })
    // Only the receiver (the lender) confirms.
    const wrong = await answerHandover(t, w.borrower, pending.handoverId, 'CONFIRMED')
    expect([wrong.statusCode, wrong.json().message]).toEqual([403, MESSAGES.handoverOnlyReceiver])
    const confirmed = await answerHandover(t, w.lender, pending.handoverId, 'CONFIRMED')
    expect(confirmed.statusCode, confirmed.body).toBe(200)
    const after: TLoan = (await call(w.borrower, 'GET', `/api/loans/${loan.id}`)).json().loan
    expect(after).toMatchObject({ status: 'RETURNED', pendingReturn: null, overdue: false })
    expect(after.returnedAt).not.toBeNull()
    const blocks = await blocksOf(w.lender, w.item.id)
    expect(blocks[0]!.content).toMatchObject({
      v: 5,
      kind: 'RETURN',
      handoverId: pending.handoverId,
      from: { id: w.borrower.user.id },
      to: { id: w.lender.user.id },
      loan: { id: loan.id, dueAt: null },
    })
    await chainHolds(w.lender, w.circle.id, 2)
    const item = (await call(w.lender, 'GET', `/api/items/${w.item.id}`)).json().item
    expect(item).toMatchObject({ ownerId: w.lender.user.id, lending: { loan: null }, locked: false })
    // Back with its owner: it can be edited and lent again.
    expect((await call(w.lender, 'PUT', `/api/items/${w.item.id}`, { name: 'Drill' })).statusCode).toBe(200)
    expect((await lendRequest(w)).kind).toBe('LOAN')
    // The loan is no longer in the active list, but in `all`.
    expect((await call(w.borrower, 'GET', '/api/loans')).json().loans).toEqual([])
    const all = (await call(w.borrower, 'GET', '/api/loans?status=all')).json().loans
    expect(all.map((l: TLoan) => [l.id, l.status])).toEqual([[loan.id, 'RETURNED']])
    const subjects = (await t.emailsTo(w.borrower.user.email)).map((m) => m.subject)
    expect(subjects).toContain('Drill is back')
  })

  it('the lender records a return in person, the borrower confirms; a rejected return keeps the loan', async () => {
    const w = await circleWithItem()
    const loan = await lend(w)
    const first = (await call(w.lender, 'POST', `/api/loans/${loan.id}/return`, {})).json().loan.pendingReturn
    expect(first).toMatchObject({ startedBy: 'LENDER' })
    const rejected = await answerHandover(t, w.borrower, first.handoverId, 'REJECTED')
    expect(rejected.statusCode).toBe(200)
    expect((await call(w.lender, 'GET', `/api/loans/${loan.id}`)).json().loan).toMatchObject({
      status: 'ACTIVE',
      pendingReturn: null,
    })
    const second = (await call(w.lender, 'POST', `/api/loans/${loan.id}/return`, {})).json().loan
      .pendingReturn
    const confirmed = await answerHandover(t, w.borrower, second.handoverId, 'CONFIRMED')
    expect(confirmed.statusCode, confirmed.body).toBe(200)
    expect((await call(w.lender, 'GET', `/api/loans/${loan.id}`)).json().loan.status).toBe('RETURNED')
    const [block] = await blocksOf(w.lender, w.item.id)
    // Whoever confirms, the item goes borrower → lender.
    expect(block!.content).toMatchObject({
      kind: 'RETURN',
      from: { id: w.borrower.user.id },
      to: { id: w.lender.user.id },
    })
    // An ended loan takes no more steps.
    const late = await call(w.borrower, 'POST', `/api/loans/${loan.id}/return`, {})
    expect([late.statusCode, late.json().message]).toEqual([409, MESSAGES.loanNotActive])
    await chainHolds(w.lender, w.circle.id, 2)
  })

  it('only the parties return; other members get 403, outsiders and strangers 404', async () => {
    const w = await circleWithItem()
    const loan = await lend(w)
    const outsider = await signedIn(t)
    let res = await call(w.other, 'POST', `/api/loans/${loan.id}/return`, {})
    expect([res.statusCode, res.json().message]).toEqual([403, MESSAGES.loanOnlyParties])
    res = await call(w.admin, 'POST', `/api/loans/${loan.id}/return`, {})
    expect([res.statusCode, res.json().message]).toEqual([403, MESSAGES.loanOnlyParties])
    for (const [method, url, payload] of [
      ['GET', `/api/loans/${loan.id}`, undefined],
      ['POST', `/api/loans/${loan.id}/return`, {}],
      ['PATCH', `/api/loans/${loan.id}`, { dueAt: inDays(9) }],
      ['POST', `/api/loans/${loan.id}/extensions`, { dueAt: inDays(9) }],
    ] as const) {
      res = await call(outsider, method, url, payload)
      expect([res.statusCode, res.json().message], url).toEqual([404, MESSAGES.loanNotFound])
    }
    expect((await call(outsider, 'GET', '/api/loans?role=lent')).json().loans).toEqual([])
    // Members see the loan; a loan that does not exist is a 404.
    expect((await call(w.other, 'GET', `/api/loans/${loan.id}`)).statusCode).toBe(200)
    res = await call(w.lender, 'GET', `/api/loans/${crypto.randomUUID()}`)
    expect([res.statusCode, res.json().message]).toEqual([404, MESSAGES.loanNotFound])
    expect((await call(null, 'GET', '/api/loans')).statusCode).toBe(401)
  })

  it('two confirmations of one return at once: one outcome, one RETURN block', async () => {
    const w = await circleWithItem()
    const loan = await lend(w)
    const { handoverId } = (await call(w.borrower, 'POST', `/api/loans/${loan.id}/return`, {})).json().loan
      .pendingReturn
    const answers = await Promise.all([
      answerHandover(t, w.lender, handoverId, 'CONFIRMED'),
      answerHandover(t, w.lender, handoverId, 'CONFIRMED'),
    ])
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409])
    const blocks = await blocksOf(w.lender, w.item.id)
    expect(blocks.map((b) => b.content.kind)).toEqual(['RETURN', 'LOAN'])
    await chainHolds(w.lender, w.circle.id, 2)
  })

  it('two confirmations of one LOAN at once: one loan, one LOAN block', async () => {
    const w = await circleWithItem()
    const request = await lendRequest(w)
    const answers = await Promise.all([
      answerHandover(t, w.borrower, request.id, 'CONFIRMED'),
      answerHandover(t, w.borrower, request.id, 'CONFIRMED'),
    ])
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409])
    expect((await call(w.borrower, 'GET', '/api/loans')).json().loans).toHaveLength(1)
    expect((await blocksOf(w.lender, w.item.id)).map((b) => b.content.kind)).toEqual(['LOAN'])
  })
})

describe('extensions and changes of date', () => {
  it('the borrower asks, the lender accepts: a LOAN_CHANGE block with the new date', async () => {
    const w = await circleWithItem()
    const loan = await lend(w)
    const wished = inDays(14)
    const asked = await call(w.borrower, 'POST', `/api/loans/${loan.id}/extensions`, {
      dueAt: wished,
      message: 'One more weekend?',
    })
    expect(asked.statusCode, asked.body).toBe(201)
    const { extension } = asked.json()
    expect(extension).toMatchObject({
      loanId: loan.id,
      requestedBy: { id: w.borrower.user.id, name: 'Ben Borrower' },
      message: 'One more weekend?',
      status: 'PENDING',
    })
    expect(asked.json().loan.pendingExtension.id).toBe(extension.id)
    // One wish at a time; not earlier than now; only later than the current date.
    let res = await call(w.borrower, 'POST', `/api/loans/${loan.id}/extensions`, { dueAt: inDays(20) })
    expect([res.statusCode, res.json().message]).toEqual([409, MESSAGES.loanExtensionPending])
    const entries = (await call(w.lender, 'GET', '/api/activities/recent')).json().activities
    expect(entries[0]).toMatchObject({ type: 'LOAN_EXTENSION_REQUESTED' })
    expect((await t.emailsTo(w.lender.user.email))[0]!.subject).toBe('Ben Borrower asks to keep Drill longer')
    // Only the lender answers.
    res = await call(w.borrower, 'PUT', `/api/loans/${loan.id}/extensions/${extension.id}`, {
      status: 'ACCEPTED',
    })
    expect([res.statusCode, res.json().message]).toEqual([403, MESSAGES.loanOnlyLender])
    res = await call(w.lender, 'PUT', `/api/loans/${loan.id}/extensions/${extension.id}`, {
      status: 'ACCEPTED',
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({
      message: MESSAGES.loanExtensionAccepted,
      extension: { status: 'ACCEPTED' },
      loan: { dueAt: new Date(wished).toISOString(), pendingExtension: null },
    })
    res = await call(w.lender, 'PUT', `/api/loans/${loan.id}/extensions/${extension.id}`, {
      status: 'DECLINED',
    })
    expect([res.statusCode, res.json().message]).toEqual([409, MESSAGES.loanExtensionNotPending])
    const [block] = await blocksOf(w.borrower, w.item.id)
    expect(block!.content).toMatchObject({
      v: 5,
      kind: 'LOAN_CHANGE',
      handoverId: null,
      from: { id: w.lender.user.id },
      to: { id: w.borrower.user.id },
      reason: null,
      loan: { id: loan.id, dueAt: new Date(wished).toISOString() },
    })
    const borrowerFeed = (await call(w.borrower, 'GET', '/api/activities/recent')).json().activities
    expect(borrowerFeed[0]).toMatchObject({ type: 'LOAN_EXTENSION_ANSWERED', data: { accepted: true } })
    await chainHolds(w.borrower, w.circle.id, 2)
  })

  it('refuses a wish that is not later, in the past, or not the borrower’s; declines and withdrawals change no date', async () => {
    const w = await circleWithItem()
    const loan = await lend(w, inDays(7))
    const ask = (who: SignedIn, dueAt: string) =>
      call(who, 'POST', `/api/loans/${loan.id}/extensions`, { dueAt })
    let res = await ask(w.borrower, inDays(3))
    expect([res.statusCode, res.json().message]).toEqual([400, MESSAGES.loanExtensionNotLater])
    res = await ask(w.borrower, new Date(Date.now() - DAY).toISOString())
    expect([res.statusCode, res.json().message]).toEqual([400, MESSAGES.loanDueAtPast])
    res = await ask(w.lender, inDays(9))
    expect([res.statusCode, res.json().message]).toEqual([403, MESSAGES.loanOnlyBorrower])
    res = await ask(w.other, inDays(9))
    expect([res.statusCode, res.json().message]).toEqual([403, MESSAGES.loanOnlyBorrower])

    const first = (await ask(w.borrower, inDays(9))).json().extension
    res = await call(w.lender, 'PUT', `/api/loans/${loan.id}/extensions/${first.id}`, { status: 'DECLINED' })
    expect(res.json()).toMatchObject({ message: MESSAGES.loanExtensionDeclined, loan: { dueAt: loan.dueAt } })
    expect((await t.emailsTo(w.borrower.user.email))[0]!.subject).toBe(
      'Lena Lender declined your request for Drill',
    )

    const second = (await ask(w.borrower, inDays(10))).json().extension
    res = await call(w.lender, 'DELETE', `/api/loans/${loan.id}/extensions/${second.id}`)
    expect([res.statusCode, res.json().message]).toEqual([403, MESSAGES.loanOnlyBorrower])
    res = await call(w.borrower, 'DELETE', `/api/loans/${loan.id}/extensions/${second.id}`)
    expect([res.statusCode, res.json().message]).toEqual([200, MESSAGES.loanExtensionWithdrawn])
    res = await call(w.borrower, 'DELETE', `/api/loans/${loan.id}/extensions/${second.id}`)
    expect([res.statusCode, res.json().message]).toEqual([409, MESSAGES.loanExtensionNotPending])
    // An extension of another loan, or none at all: not found.
    res = await call(w.lender, 'PUT', `/api/loans/${loan.id}/extensions/${crypto.randomUUID()}`, {
      status: 'ACCEPTED',
    })
    expect([res.statusCode, res.json().message]).toEqual([404, MESSAGES.loanNotFound])
    // Neither a decline nor a withdrawal wrote a block: only the LOAN.
    expect((await blocksOf(w.lender, w.item.id)).map((b) => b.content.kind)).toEqual(['LOAN'])
    expect((await call(w.lender, 'GET', `/api/loans/${loan.id}`)).json().loan.dueAt).toBe(loan.dueAt)
  })

  it('the lender shortens or extends at once; only the lender, only a future, different date', async () => {
    const w = await circleWithItem()
    const loan = await lend(w, inDays(7))
    const change = (who: SignedIn, dueAt: string) => call(who, 'PATCH', `/api/loans/${loan.id}`, { dueAt })
    let res = await change(w.borrower, inDays(9))
    expect([res.statusCode, res.json().message]).toEqual([403, MESSAGES.loanOnlyLender])
    res = await change(w.lender, new Date(Date.now() - 60_000).toISOString())
    expect([res.statusCode, res.json().message]).toEqual([400, MESSAGES.loanDueAtPast])
    res = await change(w.lender, loan.dueAt)
    expect([res.statusCode, res.json().message]).toEqual([409, MESSAGES.loanDueAtUnchanged])
    const sooner = inDays(2)
    res = await change(w.lender, sooner)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({
      message: MESSAGES.loanDueAtChanged,
      loan: { dueAt: new Date(sooner).toISOString() },
    })
    const [block] = await blocksOf(w.lender, w.item.id)
    expect(block!.content).toMatchObject({
      kind: 'LOAN_CHANGE',
      loan: { id: loan.id, dueAt: new Date(sooner).toISOString() },
    })
    const feed = (await call(w.borrower, 'GET', '/api/activities/recent')).json().activities
    expect(feed[0]).toMatchObject({ type: 'LOAN_DUE_CHANGED', data: { previousDueAt: loan.dueAt } })
    expect((await t.emailsTo(w.borrower.user.email))[0]!.subject).toBe('New return date for Drill')
    await chainHolds(w.lender, w.circle.id, 2)
  })
})

describe('departures', () => {
  it('the borrower leaves: the loan is recalled with a LOAN_CHANGE (LEFT), the lender records the return alone', async () => {
    const w = await circleWithItem()
    const loan = await lend(w)
    // A pending return and a pending wish are cancelled with the departure.
    const { handoverId } = (await call(w.borrower, 'POST', `/api/loans/${loan.id}/return`, {})).json().loan
      .pendingReturn
    expect((await call(w.borrower, 'POST', `/api/circles/${w.circle.id}/leave`)).statusCode).toBe(200)
    const recalled: TLoan = (await call(w.lender, 'GET', `/api/loans/${loan.id}`)).json().loan
    expect(recalled).toMatchObject({ status: 'ACTIVE', recallReason: 'LEFT', pendingReturn: null })
    expect(recalled.recalledAt).not.toBeNull()
    const handover = (await call(w.lender, 'GET', `/api/handovers/item/${w.item.id}`)).json().handovers
    expect(handover.find((h: THandover) => h.id === handoverId).status).toBe('CANCELLED')
    // The item says so, to the lender and the admin.
    const item = (await call(w.admin, 'GET', `/api/items/${w.item.id}`)).json().item
    expect(item.lending.loan).toMatchObject({ id: loan.id, recalled: true })
    for (const who of [w.lender, w.admin]) {
      const feed = (await call(who, 'GET', '/api/activities/recent')).json().activities
      expect(feed[0]).toMatchObject({ type: 'LOAN_RECALLED', data: { reason: 'LEFT', departed: 'BORROWER' } })
    }
    const [block] = await blocksOf(w.lender, w.item.id)
    expect(block!.content).toMatchObject({
      kind: 'LOAN_CHANGE',
      reason: 'LEFT',
      from: { id: w.lender.user.id },
      to: { id: w.borrower.user.id },
      loan: { id: loan.id, dueAt: loan.dueAt },
    })
    // The former borrower still sees the loan (they hold the thing) but cannot end it.
    const res = await call(w.borrower, 'POST', `/api/loans/${loan.id}/return`, {})
    expect([res.statusCode, res.json().message]).toEqual([403, MESSAGES.loanRecalledLenderRecords])
    const ended = await call(w.lender, 'POST', `/api/loans/${loan.id}/return`, {})
    expect(ended.statusCode, ended.body).toBe(200)
    expect(ended.json()).toMatchObject({ message: MESSAGES.loanReturnRecorded, loan: { status: 'RETURNED' } })
    const blocks = await blocksOf(w.lender, w.item.id)
    expect(blocks.map((b) => b.content.kind)).toEqual(['RETURN', 'LOAN_CHANGE', 'LOAN'])
    expect(blocks[0]!.content).toMatchObject({ handoverId: null, loan: { id: loan.id, dueAt: null } })
    await chainHolds(w.lender, w.circle.id, 3)
  })

  it('the admin removes the borrower: recalled REMOVED; the pending wish is cancelled', async () => {
    const w = await circleWithItem()
    const loan = await lend(w)
    await call(w.borrower, 'POST', `/api/loans/${loan.id}/extensions`, { dueAt: inDays(10) })
    const removed = await call(w.admin, 'DELETE', `/api/circles/${w.circle.id}/users/${w.borrower.user.id}`)
    expect(removed.statusCode).toBe(200)
    const recalled: TLoan = (await call(w.lender, 'GET', `/api/loans/${loan.id}`)).json().loan
    expect(recalled).toMatchObject({ recallReason: 'REMOVED', pendingExtension: null })
    const [block] = await blocksOf(w.lender, w.item.id)
    expect(block!.content).toMatchObject({ kind: 'LOAN_CHANGE', reason: 'REMOVED' })
    await chainHolds(w.lender, w.circle.id, 2)
  })

  it('the lender leaves: the loan is recalled (the item is theirs, isolated with them) and they record the return', async () => {
    const w = await circleWithItem()
    const loan = await lend(w)
    expect((await call(w.lender, 'POST', `/api/circles/${w.circle.id}/leave`)).statusCode).toBe(200)
    const recalled: TLoan = (await call(w.borrower, 'GET', `/api/loans/${loan.id}`)).json().loan
    expect(recalled).toMatchObject({ status: 'ACTIVE', recallReason: 'LEFT' })
    const feed = (await call(w.borrower, 'GET', '/api/activities/recent')).json().activities
    expect(feed[0]).toMatchObject({ type: 'LOAN_RECALLED', data: { departed: 'LENDER' } })
    const ended = await call(w.lender, 'POST', `/api/loans/${loan.id}/return`, {})
    expect(ended.statusCode, ended.body).toBe(200)
    expect((await call(w.borrower, 'GET', `/api/blockchain/verify/${w.circle.id}`)).json()).toMatchObject({
      valid: true,
      blockCount: 3,
    })
  })
})

describe('account deletion (docs/decisions/0035)', () => {
  const deleteAccount = (who: SignedIn) =>
    call(who, 'POST', '/api/users/me/delete', { password: DEFAULT_PASSWORD })

  it('a deleted borrower: the loan is recalled and stays with the lender, who records the return', async () => {
    const w = await circleWithItem()
    const loan = await lend(w)
    await call(w.borrower, 'POST', `/api/loans/${loan.id}/extensions`, {
      dueAt: inDays(10),
      message: 'ben-wish-7q',
    })
    const deleted = await deleteAccount(w.borrower)
    expect(deleted.statusCode, deleted.body).toBe(200)
    const recalled: TLoan = (await call(w.lender, 'GET', `/api/loans/${loan.id}`)).json().loan
    expect(recalled).toMatchObject({ status: 'ACTIVE', recallReason: 'LEFT', pendingExtension: null })
    // Their texts are gone with them, and the blocks about them no longer name them.
    const wishes = await t.database.db
      .select({ message: loanExtensions.message })
      .from(loanExtensions)
      .where(eq(loanExtensions.loanId, loan.id))
    expect(wishes).toEqual([{ message: null }])
    const blocks = await blocksOf(w.lender, w.item.id)
    expect(blocks.map((b) => b.content.kind)).toEqual(['LOAN_CHANGE', 'LOAN'])
    for (const b of blocks) expect(b.names.to.name).toBeNull()
    const ended = await call(w.lender, 'POST', `/api/loans/${loan.id}/return`, {})
    expect(ended.statusCode, ended.body).toBe(200)
    await chainHolds(w.lender, w.circle.id, 3)
  })

  it('a deleted lender: the lent item goes with the account, the loan with it; the ledger keeps its blocks', async () => {
    const w = await circleWithItem()
    const loan = await lend(w)
    expect((await deleteAccount(w.lender)).statusCode).toBe(200)
    expect((await call(w.borrower, 'GET', `/api/loans/${loan.id}`)).statusCode).toBe(404)
    expect((await call(w.borrower, 'GET', '/api/loans?status=all')).json().loans).toEqual([])
    const feed = (await call(w.borrower, 'GET', '/api/activities/recent')).json().activities
    expect(feed[0]).toMatchObject({ type: 'LOAN_RECALLED', data: { departed: 'LENDER' } })
    await chainHolds(w.borrower, w.circle.id, 2)
  })
})

describe('live', () => {
  it('lender and borrower get loan_update (and the feed), the circle item_update, others no loan_update', async () => {
    const w = await circleWithItem()
    const loan = await lend(w)
    const url = await listen(t)
    const lender = await connectAs(url, tokenOf(w.lender))
    const borrower = await connectAs(url, tokenOf(w.borrower))
    const other = await connectAs(url, tokenOf(w.other))
    try {
      const ext = await call(w.borrower, 'POST', `/api/loans/${loan.id}/extensions`, { dueAt: inDays(10) })
      expect(ext.statusCode).toBe(201)
      const update = { loanId: loan.id, itemId: w.item.id, circleId: w.circle.id }
      expect(await lender.next('loan_update')).toEqual(update)
      expect(await borrower.next('loan_update')).toEqual(update)
      expect(await lender.next('new_activity')).toMatchObject({ type: 'LOAN_EXTENSION_REQUESTED' })
      expect(await other.next('item_update')).toEqual({ itemId: w.item.id, circleId: w.circle.id })
      expect(other.received.some((r) => r.event === 'loan_update')).toBe(false)
    } finally {
      for (const l of [lender, borrower, other]) l.close()
    }
  })
})

describe('history', () => {
  it('the item lists every step: LOAN and RETURN handovers, and the LOAN_CHANGE blocks, with their dates', async () => {
    const w = await circleWithItem()
    const loan = await lend(w)
    await call(w.lender, 'PATCH', `/api/loans/${loan.id}`, { dueAt: inDays(12) })
    const { handoverId } = (await call(w.borrower, 'POST', `/api/loans/${loan.id}/return`, {})).json().loan
      .pendingReturn
    await answerHandover(t, w.lender, handoverId, 'CONFIRMED')
    const handovers: THandover[] = (await call(w.other, 'GET', `/api/handovers/item/${w.item.id}`)).json()
      .handovers
    expect(handovers.map((h) => [h.kind, h.status, h.loanId])).toEqual([
      ['RETURN', 'CONFIRMED', loan.id],
      ['LOAN', 'CONFIRMED', loan.id],
    ])
    for (const h of handovers) expect(h.answeredAt).not.toBeNull()
    const blocks = await blocksOf(w.other, w.item.id)
    expect(blocks.map((b) => b.content.kind)).toEqual(['RETURN', 'LOAN_CHANGE', 'LOAN'])
    for (const b of blocks) expect(Date.parse(b.content.time)).not.toBeNaN()
    await chainHolds(w.other, w.circle.id, 3)
  })

  it('the borrower’s "Download my data" holds the v4 blocks, and they check out offline', async () => {
    const w = await circleWithItem()
    const loan = await lend(w)
    await call(w.lender, 'PATCH', `/api/loans/${loan.id}`, { dueAt: inDays(12) })
    const res = await call(w.borrower, 'GET', '/api/users/me/export')
    expect(res.statusCode).toBe(200)
    const text = strFromU8(unzipSync(new Uint8Array(res.rawPayload))['circles-data.json']!)
    const data = JSON.parse(text) as {
      ledger: { circles: { blocks: { content: { v: number; kind: string } }[] }[] }
    }
    const kinds = data.ledger.circles.flatMap((c) => c.blocks.map((b) => `${b.content.v}:${b.content.kind}`))
    expect(kinds.sort()).toEqual(['5:LOAN', '5:LOAN_CHANGE'])
    expect(verifyDataExport(text)).toMatchObject({ valid: true, blockCount: 2, problems: [] })
  })
})
