import { MESSAGES, type TBorrowRequest } from '@circles/shared'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { borrowRequests, handovers, loans } from '../src/db/schema'
import {
  type BorrowRequestsService,
  offeredDueAt,
} from '../src/modules/borrow-requests/borrow-requests.service'
import { hashPassword } from '../src/lib/passwords'
import { createSessionTokens } from '../src/modules/auth/session-token'
import { insertUser } from '../src/modules/users/users.repository'
import { addMember, createCircle, type SignedIn } from './support/circles'
import { DEFAULT_PASSWORD, uniqueEmail } from './support/factories'
import { answerHandover, createItem, handOver, pendingHandover } from './support/handovers'
import { connectAs, listen, tokenOf } from './support/sockets'
import { createTestApp, TEST_JWT_SECRET, type TestApp } from './support/test-app'

/**
 * Asks to borrow and the waiting list (issue 26, docs/decisions/0048): every state change and who may
 * make it, on PGlite and (with DATABASE_URL) PostgreSQL.
 */

/**
 * Set to true once h-loans is merged (requestInTx then makes LOAN handovers with their due date): the
 * marked tests check the handover's kind and due date.
 */
const LOAN_HANDOVERS = true

let t: TestApp
let service: BorrowRequestsService
let passwordHash: string
beforeAll(async () => {
  t = await createTestApp({ exposeServices: (s) => (service = s.borrowRequests) })
  passwordHash = await hashPassword(DEFAULT_PASSWORD)
})

/** A verified user with a session, its password hashed once for the whole file (the tests make many). */
async function signedIn(_t: TestApp, opts: { name?: string } = {}): Promise<SignedIn> {
  const user = await insertUser(t.database.db, {
    name: opts.name ?? 'Test User',
    email: uniqueEmail('borrow'),
    passwordHash,
    emailVerified: true,
    language: 'en',
  })
  if (!user) throw new Error('signedIn: email taken')
  const token = createSessionTokens(TEST_JWT_SECRET).issue({ userId: user.id, sv: user.sessionVersion })
  return { user: { ...user, password: DEFAULT_PASSWORD }, auth: { authorization: `Bearer ${token}` } }
}
afterAll(() => t.close())

const DAY = 86_400_000
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString()

type World = Awaited<ReturnType<typeof world>>

/** A circle: its admin, the owner of a drill, and three members who may ask for it. */
async function world() {
  const admin = await signedIn(t, { name: 'Ada Admin' })
  const owner = await signedIn(t, { name: 'Otto Owner' })
  const ben = await signedIn(t, { name: 'Ben Borrower' })
  const cleo = await signedIn(t, { name: 'Cleo Second' })
  const dora = await signedIn(t, { name: 'Dora Third' })
  const circle = await createCircle(t, admin)
  for (const member of [owner, ben, cleo, dora]) await addMember(t, admin, circle.id, member)
  const item = await createItem(t, owner, circle.id)
  return { admin, owner, ben, cleo, dora, circle, item }
}

function ask(who: SignedIn, itemId: string, body: Record<string, unknown> = {}) {
  return t.app.inject({
    method: 'POST',
    url: `/api/items/${itemId}/borrow-requests`,
    headers: who.auth,
    payload: { wishedUntil: inDays(7), message: 'For the shelf in the hall', ...body },
  })
}

async function asked(who: SignedIn, itemId: string, body: Record<string, unknown> = {}) {
  const res = await ask(who, itemId, body)
  if (res.statusCode !== 201) throw new Error(`ask: ${res.statusCode} ${res.body}`)
  return res.json().borrowRequest as TBorrowRequest
}

function answer(who: SignedIn, id: string, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'PUT', url: `/api/borrow-requests/${id}`, headers: who.auth, payload })
}

function withdraw(who: SignedIn, id: string) {
  return t.app.inject({ method: 'DELETE', url: `/api/borrow-requests/${id}`, headers: who.auth })
}

async function queue(who: SignedIn, itemId: string): Promise<TBorrowRequest[]> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/items/${itemId}/borrow-requests`,
    headers: who.auth,
  })
  expect(res.statusCode).toBe(200)
  return res.json().borrowRequests
}

async function row(id: string) {
  const [r] = await t.database.db.select().from(borrowRequests).where(eq(borrowRequests.id, id))
  return r!
}

async function handoverRow(id: string) {
  const [h] = await t.database.db.select().from(handovers).where(eq(handovers.id, id))
  return h!
}

async function queueLength(who: SignedIn, itemId: string) {
  const res = await t.app.inject({ method: 'GET', url: `/api/items/${itemId}`, headers: who.auth })
  return res.json().item.lending.queueLength as number
}

async function feedTypes(who: SignedIn) {
  const res = await t.app.inject({ method: 'GET', url: '/api/activities/recent', headers: who.auth })
  return (res.json().activities as { type: string; title: string }[]).map((a) => `${a.type}: ${a.title}`)
}

/** The item goes out on loan (a row as the loans module writes it when a LOAN handover is confirmed). */
async function lend(w: Awaited<ReturnType<typeof world>>, borrower: SignedIn) {
  await t.database.db.insert(loans).values({
    circleId: w.circle.id,
    itemId: w.item.id,
    lenderId: w.owner.user.id,
    borrowerId: borrower.user.id,
    dueAt: new Date(Date.now() + 3 * DAY),
  })
}

async function offerNext(w: Awaited<ReturnType<typeof world>>) {
  const after = await t.database.db.transaction((tx) =>
    service.offerNext(tx, { itemId: w.item.id, circleId: w.circle.id, lenderId: w.owner.user.id }),
  )
  after?.()
}

describe('asking to borrow', () => {
  it('a member asks: WAITING, first in the queue; the owner is told in the feed and by email', async () => {
    const w = await world()
    const res = await ask(w.ben, w.item.id, { wishedFrom: inDays(1), wishedUntil: inDays(5) })
    expect(res.statusCode).toBe(201)
    expect(res.json().message).toBe(MESSAGES.borrowRequestCreated)
    expect(res.json().borrowRequest).toMatchObject({
      itemId: w.item.id,
      circleId: w.circle.id,
      asker: { id: w.ben.user.id, name: 'Ben Borrower' },
      owner: { id: w.owner.user.id, name: 'Otto Owner' },
      status: 'WAITING',
      position: 1,
      message: 'For the shelf in the hall',
      handoverId: null,
      item: { name: 'Cordless drill' },
    })
    expect(await queueLength(w.dora, w.item.id)).toBe(1)
    expect(await feedTypes(w.owner)).toContain('BORROW_REQUESTED: Ben Borrower asks to borrow Cordless drill')
    const [mail] = await t.emailsTo(w.owner.user.email)
    expect(mail?.subject).toBe('Ben Borrower asks to borrow Cordless drill')
  })

  it('refuses the owner, a second open ask, an outsider, and wished dates in the past or out of order', async () => {
    const w = await world()
    const outsider = await signedIn(t)
    const own = await ask(w.owner, w.item.id)
    expect(own.statusCode).toBe(403)
    expect(own.json().message).toBe(MESSAGES.borrowOwnItem)
    await asked(w.ben, w.item.id)
    const again = await ask(w.ben, w.item.id)
    expect(again.statusCode).toBe(409)
    expect(again.json().message).toBe(MESSAGES.borrowRequestExists)
    const foreign = await ask(outsider, w.item.id)
    expect(foreign.statusCode).toBe(404)
    const past = await ask(w.cleo, w.item.id, { wishedUntil: new Date(Date.now() - DAY).toISOString() })
    expect(past.statusCode).toBe(400)
    expect(past.json().message).toBe(MESSAGES.borrowWishedUntilPast)
    const order = await ask(w.cleo, w.item.id, { wishedFrom: inDays(4), wishedUntil: inDays(2) })
    expect(order.statusCode).toBe(400)
    expect(order.json().message).toBe(MESSAGES.borrowWishedOrder)
    const garbage = await ask(w.cleo, w.item.id, { wishedUntil: 'next week' })
    expect(garbage.statusCode).toBe(400)
    expect(await queueLength(w.owner, w.item.id)).toBe(1)
  })

  it('refuses an item whose owner left (isolated) and the current borrower of the item', async () => {
    const w = await world()
    await lend(w, w.ben)
    const borrower = await ask(w.ben, w.item.id)
    expect(borrower.statusCode).toBe(409)
    expect(borrower.json().message).toBe(MESSAGES.borrowAlreadyBorrowing)
    // Anyone else may queue while it is out.
    expect((await ask(w.cleo, w.item.id)).statusCode).toBe(201)

    const v = await world()
    const left = await t.app.inject({
      method: 'POST',
      url: `/api/circles/${v.circle.id}/leave`,
      headers: v.owner.auth,
    })
    expect(left.statusCode).toBe(200)
    const isolated = await ask(v.ben, v.item.id)
    expect(isolated.statusCode).toBe(409)
    expect(isolated.json().message).toBe(MESSAGES.borrowItemIsolated)
  })

  it('withdrawn, the asker may ask again', async () => {
    const w = await world()
    const first = await asked(w.ben, w.item.id)
    const res = await withdraw(w.ben, first.id)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({
      message: MESSAGES.borrowRequestWithdrawn,
      borrowRequest: { status: 'WITHDRAWN', position: null },
    })
    expect((await ask(w.ben, w.item.id)).statusCode).toBe(201)
  })
})

describe('the queue', () => {
  it('in order of asking; the owner and the asker read the message, other members names and places', async () => {
    const w = await world()
    const b = await asked(w.ben, w.item.id, { message: 'Ben needs it' })
    const c = await asked(w.cleo, w.item.id, { message: 'Cleo needs it' })
    const d = await asked(w.dora, w.item.id, { message: 'Dora needs it' })
    expect(await queueLength(w.admin, w.item.id)).toBe(3)

    const byOwner = await queue(w.owner, w.item.id)
    expect(byOwner.map((r) => [r.id, r.position, r.message])).toEqual([
      [b.id, 1, 'Ben needs it'],
      [c.id, 2, 'Cleo needs it'],
      [d.id, 3, 'Dora needs it'],
    ])
    const byCleo = await queue(w.cleo, w.item.id)
    expect(byCleo.map((r) => [r.asker.name, r.position, r.message])).toEqual([
      ['Ben Borrower', 1, null],
      ['Cleo Second', 2, 'Cleo needs it'],
      ['Dora Third', 3, null],
    ])
    const outsider = await signedIn(t)
    const foreign = await t.app.inject({
      method: 'GET',
      url: `/api/items/${w.item.id}/borrow-requests`,
      headers: outsider.auth,
    })
    expect(foreign.statusCode).toBe(404)

    // Ben withdraws: everyone behind him moves up.
    expect((await withdraw(w.ben, b.id)).statusCode).toBe(200)
    expect((await queue(w.owner, w.item.id)).map((r) => [r.id, r.position])).toEqual([
      [c.id, 1],
      [d.id, 2],
    ])

    const mine = await t.app.inject({ method: 'GET', url: '/api/borrow-requests', headers: w.ben.auth })
    expect(mine.json().borrowRequests).toEqual([])
    const all = await t.app.inject({
      method: 'GET',
      url: '/api/borrow-requests?role=mine&status=all',
      headers: w.ben.auth,
    })
    expect(all.json().borrowRequests.map((r: TBorrowRequest) => [r.id, r.status])).toEqual([
      [b.id, 'WITHDRAWN'],
    ])
    const ofMe = await t.app.inject({
      method: 'GET',
      url: '/api/borrow-requests?role=of-me',
      headers: w.owner.auth,
    })
    expect(ofMe.json().borrowRequests.map((r: TBorrowRequest) => r.id)).toEqual([d.id, c.id])
  })
})

describe('the owner answers', () => {
  it('accepting makes a handover request from the owner to the asker; the ask is OFFERED', async () => {
    const w = await world()
    const b = await asked(w.ben, w.item.id, { wishedUntil: inDays(6) })
    const c = await asked(w.cleo, w.item.id)
    const res = await answer(w.owner, b.id, { status: 'ACCEPTED', requesterComment: 'Bits in the case' })
    expect(res.statusCode).toBe(200)
    expect(res.json().message).toBe(MESSAGES.borrowRequestAccepted)
    const offered = res.json().borrowRequest as TBorrowRequest
    expect(offered).toMatchObject({ status: 'OFFERED', position: 1 })
    expect(offered.handoverId).toBeTruthy()
    const handover = await handoverRow(offered.handoverId!)
    expect(handover).toMatchObject({
      itemId: w.item.id,
      senderId: w.owner.user.id,
      receiverId: w.ben.user.id,
      status: 'PENDING',
      requesterComment: 'Bits in the case',
      completeOwnership: false,
    })
    // Cleo keeps waiting, second; the queue still counts both.
    expect((await queue(w.cleo, w.item.id)).map((r) => [r.id, r.status, r.position])).toEqual([
      [b.id, 'OFFERED', 1],
      [c.id, 'WAITING', 2],
    ])
    expect(await queueLength(w.owner, w.item.id)).toBe(2)
    // Ben finds the request to answer.
    const mine = await t.app.inject({ method: 'GET', url: '/api/handovers', headers: w.ben.auth })
    expect(mine.json().handovers.map((h: { id: string }) => h.id)).toContain(offered.handoverId)
    // An OFFERED ask is answered already.
    const twice = await answer(w.owner, b.id, { status: 'DECLINED' })
    expect(twice.statusCode).toBe(409)
    expect(twice.json().message).toBe(MESSAGES.borrowRequestNotWaiting)
  })

  it.runIf(LOAN_HANDOVERS)(
    'the handover is a LOAN due at the wished end, or the date the owner gives',
    async () => {
      const w = await world()
      const wishedUntil = inDays(6)
      const b = await asked(w.ben, w.item.id, { wishedUntil })
      const offered = (await answer(w.owner, b.id, { status: 'ACCEPTED' })).json().borrowRequest
      const handover = await handoverRow(offered.handoverId)
      expect(handover.kind).toBe('LOAN')
      expect(handover.dueAt?.toISOString()).toBe(new Date(wishedUntil).toISOString())
      const c = await asked(w.cleo, (await createItem(t, w.owner, w.circle.id, 'Saw')).id)
      const dueAt = inDays(3)
      const given = (await answer(w.owner, c.id, { status: 'ACCEPTED', dueAt })).json().borrowRequest
      expect((await handoverRow(given.handoverId)).dueAt?.toISOString()).toBe(new Date(dueAt).toISOString())
    },
  )

  it.runIf(LOAN_HANDOVERS)(
    'lent to an asker straight from the handover form: their ask is BORROWED',
    async () => {
      const w = await world()
      const b = await asked(w.ben, w.item.id)
      const c = await asked(w.cleo, w.item.id)
      await handOver(t, w.owner, w.ben, w.item.id, { kind: 'LOAN', dueAt: inDays(3) })
      expect((await row(b.id)).status).toBe('BORROWED')
      expect((await row(c.id)).status).toBe('WAITING')
    },
  )

  it('only the owner answers: the asker and other members 403, an outsider 404', async () => {
    const w = await world()
    const outsider = await signedIn(t)
    const b = await asked(w.ben, w.item.id)
    for (const who of [w.ben, w.cleo, w.admin]) {
      const res = await answer(who, b.id, { status: 'ACCEPTED' })
      expect(res.statusCode).toBe(403)
      expect(res.json().message).toBe(MESSAGES.borrowOnlyOwner)
    }
    expect((await answer(outsider, b.id, { status: 'ACCEPTED' })).statusCode).toBe(404)
    expect(
      (await answer(w.owner, '00000000-0000-4000-8000-000000000000', { status: 'DECLINED' })).statusCode,
    ).toBe(404)
    expect((await row(b.id)).status).toBe('WAITING')
  })

  it('refuses to accept while the item is out or a handover waits, with the reason; the ask stays WAITING', async () => {
    const w = await world()
    const b = await asked(w.ben, w.item.id)
    await pendingHandover(t, w.owner, w.dora, w.item.id)
    const pending = await answer(w.owner, b.id, { status: 'ACCEPTED' })
    expect(pending.statusCode).toBe(409)
    expect(pending.json().message).toBe(MESSAGES.borrowItemPendingHandover)
    expect((await row(b.id)).status).toBe('WAITING')

    const v = await world()
    const c = await asked(v.cleo, v.item.id)
    await lend(v, v.dora)
    const out = await answer(v.owner, c.id, { status: 'ACCEPTED' })
    expect(out.statusCode).toBe(409)
    expect(out.json().message).toBe(MESSAGES.borrowItemOnLoan)
    expect((await row(c.id)).status).toBe('WAITING')
    expect((await queue(v.owner, v.item.id)).map((r) => r.position)).toEqual([1])
  })

  it('a double click on accept makes one handover request', async () => {
    const w = await world()
    const b = await asked(w.ben, w.item.id)
    const [one, two] = await Promise.all([
      answer(w.owner, b.id, { status: 'ACCEPTED' }),
      answer(w.owner, b.id, { status: 'ACCEPTED' }),
    ])
    expect([one.statusCode, two.statusCode].sort()).toEqual([200, 409])
    const made = await t.database.db.select().from(handovers).where(eq(handovers.itemId, w.item.id))
    expect(made).toHaveLength(1)
    expect((await row(b.id)).handoverId).toBe(made[0]!.id)
  })

  it('declining with a reason: the asker reads it (feed, email), other members do not', async () => {
    const w = await world()
    const b = await asked(w.ben, w.item.id)
    const res = await answer(w.owner, b.id, { status: 'DECLINED', reason: 'It goes on holiday with me' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({
      message: MESSAGES.borrowRequestDeclined,
      borrowRequest: { status: 'DECLINED', declineReason: 'It goes on holiday with me', position: null },
    })
    expect(await feedTypes(w.ben)).toContain(
      'BORROW_DECLINED: Otto Owner declined your request to borrow Cordless drill',
    )
    const [mail] = await t.emailsTo(w.ben.user.email)
    expect(mail?.subject).toBe('Otto Owner declined your request to borrow Cordless drill')
    expect(mail?.textBody).toContain('It goes on holiday with me')
    const byBen = await t.app.inject({
      method: 'GET',
      url: '/api/borrow-requests?status=all',
      headers: w.ben.auth,
    })
    expect(byBen.json().borrowRequests[0].declineReason).toBe('It goes on holiday with me')
    expect(await queueLength(w.owner, w.item.id)).toBe(0)
    const again = await answer(w.owner, b.id, { status: 'DECLINED' })
    expect(again.statusCode).toBe(409)
    expect(again.json().message).toBe(MESSAGES.borrowRequestClosed)
    // Declined, Ben may ask again later.
    expect((await ask(w.ben, w.item.id)).statusCode).toBe(201)
  })
})

describe('withdrawing', () => {
  it('only the asker withdraws: the owner and members 403, an outsider 404; twice is 409', async () => {
    const w = await world()
    const outsider = await signedIn(t)
    const b = await asked(w.ben, w.item.id)
    for (const who of [w.owner, w.cleo]) {
      const res = await withdraw(who, b.id)
      expect(res.statusCode).toBe(403)
      expect(res.json().message).toBe(MESSAGES.borrowOnlyAsker)
    }
    expect((await withdraw(outsider, b.id)).statusCode).toBe(404)
    expect((await withdraw(w.ben, b.id)).statusCode).toBe(200)
    const twice = await withdraw(w.ben, b.id)
    expect(twice.statusCode).toBe(409)
    expect(twice.json().message).toBe(MESSAGES.borrowRequestClosed)
  })

  it('withdrawing an OFFERED ask cancels its handover request and offers the item to the next in line', async () => {
    const w = await world()
    const b = await asked(w.ben, w.item.id)
    const c = await asked(w.cleo, w.item.id)
    const offered = (await answer(w.owner, b.id, { status: 'ACCEPTED' })).json().borrowRequest
    expect((await withdraw(w.ben, b.id)).statusCode).toBe(200)
    expect((await handoverRow(offered.handoverId)).status).toBe('CANCELLED')
    const next = await row(c.id)
    expect(next.status).toBe('OFFERED')
    const handover = await handoverRow(next.handoverId!)
    expect(handover).toMatchObject({
      senderId: w.owner.user.id,
      receiverId: w.cleo.user.id,
      status: 'PENDING',
    })
    expect(await feedTypes(w.owner)).toContain(
      'BORROW_OFFERED: Cordless drill was offered to Cleo Second, next in line',
    )
  })
})

describe('the LOAN request of an offered ask is answered', () => {
  it('confirmed by the asker: BORROWED', async () => {
    const w = await world()
    const b = await asked(w.ben, w.item.id)
    const offered = (await answer(w.owner, b.id, { status: 'ACCEPTED' })).json().borrowRequest
    const res = await answerHandover(t, w.ben, offered.handoverId, 'CONFIRMED')
    expect(res.statusCode).toBe(200)
    expect((await row(b.id)).status).toBe('BORROWED')
  })

  it('rejected by the asker: WITHDRAWN, and the next in line is offered it', async () => {
    const w = await world()
    const b = await asked(w.ben, w.item.id)
    const c = await asked(w.cleo, w.item.id)
    const offered = (await answer(w.owner, b.id, { status: 'ACCEPTED' })).json().borrowRequest
    expect((await answerHandover(t, w.ben, offered.handoverId, 'REJECTED')).statusCode).toBe(200)
    expect((await row(b.id)).status).toBe('WITHDRAWN')
    const next = await row(c.id)
    expect(next.status).toBe('OFFERED')
    expect((await handoverRow(next.handoverId!)).receiverId).toBe(w.cleo.user.id)
  })

  it('cancelled by the owner: DECLINED, and the next in line is offered it', async () => {
    const w = await world()
    const b = await asked(w.ben, w.item.id)
    const c = await asked(w.cleo, w.item.id)
    const offered = (await answer(w.owner, b.id, { status: 'ACCEPTED' })).json().borrowRequest
    const cancel = await t.app.inject({
      method: 'DELETE',
      url: `/api/handovers/${offered.handoverId}`,
      headers: w.owner.auth,
    })
    expect(cancel.statusCode).toBe(200)
    expect((await row(b.id)).status).toBe('DECLINED')
    expect((await row(c.id)).status).toBe('OFFERED')
  })
})

describe('the next in line (offerNext, called by a loan return)', () => {
  it('offers the first WAITING ask in order of asking; withdrawn and closed asks are skipped', async () => {
    const w = await world()
    const b = await asked(w.ben, w.item.id)
    const c = await asked(w.cleo, w.item.id)
    const d = await asked(w.dora, w.item.id)
    await withdraw(w.ben, b.id)
    // Cleo leaves the circle: her ask closes.
    const left = await t.app.inject({
      method: 'POST',
      url: `/api/circles/${w.circle.id}/leave`,
      headers: w.cleo.auth,
    })
    expect(left.statusCode).toBe(200)
    expect((await row(c.id)).status).toBe('CLOSED')
    await offerNext(w)
    const next = await row(d.id)
    expect(next.status).toBe('OFFERED')
    expect(await handoverRow(next.handoverId!)).toMatchObject({
      senderId: w.owner.user.id,
      receiverId: w.dora.user.id,
      status: 'PENDING',
    })
    expect(await feedTypes(w.owner)).toContain(
      'BORROW_OFFERED: Cordless drill was offered to Dora Third, next in line',
    )
    const [mail] = await t.emailsTo(w.owner.user.email)
    expect(mail?.subject).toBe('Cordless drill was offered to Dora Third, next in line')
    // Called again (a second return listener, a retry): the item has a pending handover, nobody else.
    await offerNext(w)
    const made = await t.database.db.select().from(handovers).where(eq(handovers.itemId, w.item.id))
    expect(made).toHaveLength(1)
  })

  it('offers nothing while the item is still out or nobody waits', async () => {
    const w = await world()
    await offerNext(w)
    expect(await t.database.db.select().from(handovers).where(eq(handovers.itemId, w.item.id))).toHaveLength(
      0,
    )
    const b = await asked(w.ben, w.item.id)
    await lend(w, w.dora)
    await offerNext(w)
    expect((await row(b.id)).status).toBe('WAITING')
  })

  it('the return date: the wished end while ahead, else the wished length from now (at least a day)', () => {
    const now = new Date('2026-05-10T12:00:00Z')
    const base = {
      createdAt: new Date('2026-05-01T12:00:00Z'),
      wishedFrom: new Date('2026-05-02T12:00:00Z'),
      wishedUntil: new Date('2026-05-12T12:00:00Z'),
    }
    const request = (over: Partial<typeof base>) =>
      ({ ...base, ...over }) as unknown as Parameters<typeof offeredDueAt>[0]
    expect(offeredDueAt(request({}), now).toISOString()).toBe('2026-05-12T12:00:00.000Z')
    // Past: four days wished (2nd to 6th) from now.
    expect(offeredDueAt(request({ wishedUntil: new Date('2026-05-06T12:00:00Z') }), now).toISOString()).toBe(
      '2026-05-14T12:00:00.000Z',
    )
    // Without a start: from when it was asked.
    expect(
      offeredDueAt(
        request({ wishedFrom: null as unknown as Date, wishedUntil: new Date('2026-05-03T12:00:00Z') }),
        now,
      ).toISOString(),
    ).toBe('2026-05-12T12:00:00.000Z')
  })
})

describe('asks close when people or the item go', () => {
  it('the asker leaves, the owner is removed: their open asks are CLOSED and the queue empties', async () => {
    const w = await world()
    const b = await asked(w.ben, w.item.id)
    const c = await asked(w.cleo, w.item.id)
    const offered = (await answer(w.owner, c.id, { status: 'ACCEPTED' })).json().borrowRequest
    const left = await t.app.inject({
      method: 'POST',
      url: `/api/circles/${w.circle.id}/leave`,
      headers: w.ben.auth,
    })
    expect(left.statusCode).toBe(200)
    expect((await row(b.id)).status).toBe('CLOSED')
    expect((await row(c.id)).status).toBe('OFFERED')
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/circles/${w.circle.id}/users/${w.owner.user.id}`,
      headers: w.admin.auth,
    })
    expect(removed.statusCode).toBe(200)
    expect((await row(c.id)).status).toBe('CLOSED')
    expect((await handoverRow(offered.handoverId)).status).toBe('CANCELLED')
  })

  // ADR 0048 (2026-11-26): the next in line is offered the item when the asker it was offered to goes,
  // as on a return (before, the owner had to accept the next ask by hand).
  const departures = {
    leaves: (w: World) =>
      t.app.inject({ method: 'POST', url: `/api/circles/${w.circle.id}/leave`, headers: w.ben.auth }),
    'is removed': (w: World) =>
      t.app.inject({
        method: 'DELETE',
        url: `/api/circles/${w.circle.id}/users/${w.ben.user.id}`,
        headers: w.admin.auth,
      }),
    'deletes their account': (w: World) =>
      t.app.inject({
        method: 'POST',
        url: '/api/users/me/delete',
        headers: w.ben.auth,
        payload: { password: DEFAULT_PASSWORD },
      }),
  }
  for (const [how, depart] of Object.entries(departures)) {
    it(`the asker it was offered to after a return ${how}: the next in line is offered it`, async () => {
      const w = await world()
      // The drill is out with Dora (a real loan); Ben, then Cleo ask.
      const lent = await pendingHandover(t, w.owner, w.dora, w.item.id, { kind: 'LOAN', dueAt: inDays(3) })
      expect((await answerHandover(t, w.dora, lent.id, 'CONFIRMED')).statusCode).toBe(200)
      const b = await asked(w.ben, w.item.id)
      const c = await asked(w.cleo, w.item.id)
      // Dora brings it back, the owner confirms: Ben is offered it.
      const [loan] = await t.database.db.select().from(loans).where(eq(loans.itemId, w.item.id))
      const back = await t.app.inject({
        method: 'POST',
        url: `/api/loans/${loan!.id}/return`,
        headers: w.dora.auth,
        payload: {},
      })
      expect(back.statusCode, back.body).toBe(200)
      const returnId = back.json().loan.pendingReturn.handoverId as string
      expect((await answerHandover(t, w.owner, returnId, 'CONFIRMED')).statusCode).toBe(200)
      const offeredToBen = await row(b.id)
      expect(offeredToBen.status).toBe('OFFERED')

      const gone = await depart(w)
      expect(gone.statusCode, gone.body).toBe(200)
      expect((await row(b.id)).status).toBe('CLOSED')
      expect((await handoverRow(offeredToBen.handoverId!)).status).toBe('CANCELLED')
      // Cleo is offered it, as on a return: a LOAN request from the owner, the owner's feed and email.
      const next = await row(c.id)
      expect(next.status).toBe('OFFERED')
      expect(await handoverRow(next.handoverId!)).toMatchObject({
        kind: 'LOAN',
        senderId: w.owner.user.id,
        receiverId: w.cleo.user.id,
        status: 'PENDING',
      })
      expect(await feedTypes(w.owner)).toContain(
        'BORROW_OFFERED: Cordless drill was offered to Cleo Second, next in line',
      )
      const [mail] = await t.emailsTo(w.owner.user.email)
      expect(mail?.subject).toBe('Cordless drill was offered to Cleo Second, next in line')
      expect((await feedTypes(w.cleo))[0]).toMatch(/^PENDING_HANDOVER: /)
      expect((await queue(w.cleo, w.item.id)).map((r) => [r.id, r.status, r.position])).toEqual([
        [c.id, 'OFFERED', 1],
      ])
      // Cleo takes it: the loan starts.
      expect((await answerHandover(t, w.cleo, next.handoverId!, 'CONFIRMED')).statusCode).toBe(200)
      expect((await row(c.id)).status).toBe('BORROWED')
    })
  }

  it('the offered asker leaves while the owner clicks accept on their ask: both end, no deadlock', async () => {
    const w = await world()
    const b = await asked(w.ben, w.item.id)
    const c = await asked(w.cleo, w.item.id)
    expect((await answer(w.owner, b.id, { status: 'ACCEPTED' })).statusCode).toBe(200)
    // The owner's answer locks the item, then the ask; the departure now does the same.
    const [left, clicked] = await Promise.all([
      departures.leaves(w),
      answer(w.owner, b.id, { status: 'ACCEPTED' }),
    ])
    expect(left.statusCode, left.body).toBe(200)
    expect(clicked.statusCode, clicked.body).toBe(409)
    expect((await row(c.id)).status).toBe('OFFERED')
  })

  it('the owner leaves while an ask is offered: nobody is offered it (the item is isolated with them)', async () => {
    const w = await world()
    const b = await asked(w.ben, w.item.id)
    const c = await asked(w.cleo, w.item.id)
    const offered = (await answer(w.owner, b.id, { status: 'ACCEPTED' })).json().borrowRequest
    const left = await t.app.inject({
      method: 'POST',
      url: `/api/circles/${w.circle.id}/leave`,
      headers: w.owner.auth,
    })
    expect(left.statusCode).toBe(200)
    expect([(await row(b.id)).status, (await row(c.id)).status]).toEqual(['CLOSED', 'CLOSED'])
    expect((await handoverRow(offered.handoverId)).status).toBe('CANCELLED')
    const made = await t.database.db.select().from(handovers).where(eq(handovers.itemId, w.item.id))
    expect(made).toHaveLength(1)
  })

  it('the item handed over for good: its open asks close', async () => {
    const w = await world()
    const b = await asked(w.ben, w.item.id)
    await handOver(t, w.owner, w.dora, w.item.id, { completeOwnership: true })
    expect((await row(b.id)).status).toBe('CLOSED')
    expect(await queueLength(w.dora, w.item.id)).toBe(0)
  })
})

describe('live', () => {
  it('the asker and the owner hear borrow_request_update, the circle item_update, the owner the feed', async () => {
    const w = await world()
    const url = await listen(t)
    const owner = await connectAs(url, tokenOf(w.owner))
    const ben = await connectAs(url, tokenOf(w.ben))
    const dora = await connectAs(url, tokenOf(w.dora))
    try {
      const b = await asked(w.ben, w.item.id)
      const waiting = { borrowRequestId: b.id, itemId: w.item.id, circleId: w.circle.id, status: 'WAITING' }
      expect(await owner.next('borrow_request_update')).toEqual(waiting)
      expect(await ben.next('borrow_request_update')).toEqual(waiting)
      expect(await dora.next('item_update')).toEqual({ itemId: w.item.id, circleId: w.circle.id })
      expect(await owner.next('new_activity')).toMatchObject({ type: 'BORROW_REQUESTED' })
      await answer(w.owner, b.id, { status: 'DECLINED' })
      expect(
        await ben.next<{ status: string }>('borrow_request_update', (p) => p.status === 'DECLINED'),
      ).toMatchObject({ borrowRequestId: b.id })
      expect(await ben.next('new_activity')).toMatchObject({ type: 'BORROW_DECLINED' })
      expect(dora.received.some((r) => r.event === 'borrow_request_update')).toBe(false)
    } finally {
      for (const listener of [owner, ben, dora]) listener.close()
    }
  })
})
