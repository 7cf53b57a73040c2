import { and, asc, desc, eq, inArray, or, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Executor } from '../../db/client'
import { borrowRequests, circleMembers, handovers, items, loans, users } from '../../db/schema'

export type BorrowRequestRow = typeof borrowRequests.$inferSelect
export type NewBorrowRequest = typeof borrowRequests.$inferInsert
export type BorrowRequestStatus = BorrowRequestRow['status']

/** The open statuses: the ones in the queue (and under the unique index of one open ask per asker). */
export const OPEN: BorrowRequestStatus[] = ['WAITING', 'OFFERED']

const asker = alias(users, 'asker')
const owner = alias(users, 'owner')

/** Place in the item's queue (from 1) while open, by order of asking; null once it ended. */
const position = sql<number | null>`case when ${borrowRequests.status} in ('WAITING', 'OFFERED') then (
  select count(*)::int from borrow_requests q
  where q.item_id = ${borrowRequests.itemId} and q.status in ('WAITING', 'OFFERED')
    and (q.created_at, q.id) <= (${borrowRequests.createdAt}, ${borrowRequests.id})
) end`

const view = {
  request: borrowRequests,
  askerName: asker.name,
  ownerId: items.ownerId,
  ownerName: owner.name,
  itemName: items.name,
  imageId: items.imageId,
  imageType: items.imageType,
  position,
}
export type BorrowRequestViewRow = {
  request: BorrowRequestRow
  askerName: string
  ownerId: string
  ownerName: string
  itemName: string
  imageId: string | null
  imageType: 'jpg' | 'png' | 'webp' | null
  position: number | null
}

function selectView(db: Executor) {
  return db
    .select(view)
    .from(borrowRequests)
    .innerJoin(items, eq(items.id, borrowRequests.itemId))
    .innerJoin(asker, eq(asker.id, borrowRequests.askerId))
    .innerJoin(owner, eq(owner.id, items.ownerId))
}

export async function findView(db: Executor, id: string): Promise<BorrowRequestViewRow | undefined> {
  const [row] = await selectView(db).where(eq(borrowRequests.id, id)).limit(1)
  return row
}

/** An item's open asks in queue order (order of asking). */
export function listOpenForItem(db: Executor, itemId: string): Promise<BorrowRequestViewRow[]> {
  return selectView(db)
    .where(and(eq(borrowRequests.itemId, itemId), inArray(borrowRequests.status, OPEN)))
    .orderBy(asc(borrowRequests.createdAt), asc(borrowRequests.id))
}

/** My asks (`mine`) or the asks of items I own now (`of-me`); newest first. */
export function listForUser(
  db: Executor,
  userId: string,
  role: 'mine' | 'of-me',
  openOnly: boolean,
): Promise<BorrowRequestViewRow[]> {
  const who = role === 'mine' ? eq(borrowRequests.askerId, userId) : eq(items.ownerId, userId)
  const filter = openOnly ? and(who, inArray(borrowRequests.status, OPEN)) : who
  return selectView(db).where(filter).orderBy(desc(borrowRequests.createdAt), desc(borrowRequests.id))
}

/** Locks the ask for the rest of the transaction: answers, withdrawals and offers run one at a time. */
export async function lockRequest(tx: Executor, id: string): Promise<BorrowRequestRow | undefined> {
  const [row] = await tx.select().from(borrowRequests).where(eq(borrowRequests.id, id)).for('update')
  return row
}

/** The OFFERED ask whose LOAN handover request this is, locked. */
export async function lockOfferedByHandover(tx: Executor, handoverId: string) {
  const [row] = await tx
    .select()
    .from(borrowRequests)
    .where(and(eq(borrowRequests.handoverId, handoverId), eq(borrowRequests.status, 'OFFERED')))
    .for('update')
  return row
}

/** The first WAITING ask of the item, by order of asking, locked (others skip nothing: one at a time). */
export async function lockFirstWaiting(tx: Executor, itemId: string) {
  const [row] = await tx
    .select()
    .from(borrowRequests)
    .where(and(eq(borrowRequests.itemId, itemId), eq(borrowRequests.status, 'WAITING')))
    .orderBy(asc(borrowRequests.createdAt), asc(borrowRequests.id))
    .limit(1)
    .for('update')
  return row
}

export async function insertRequest(tx: Executor, values: NewBorrowRequest): Promise<BorrowRequestRow> {
  const [row] = await tx.insert(borrowRequests).values(values).returning()
  return row!
}

export async function setStatus(
  tx: Executor,
  id: string,
  values: Partial<Pick<BorrowRequestRow, 'status' | 'declineReason' | 'handoverId' | 'answeredAt'>>,
): Promise<void> {
  await tx.update(borrowRequests).set(values).where(eq(borrowRequests.id, id))
}

/**
 * Closes the open asks in the circle that `userId` made or that are of items `userId` holds (they left
 * or were removed). Returns them as they were, OFFERED ones with their handover.
 */
export function closeInvolving(
  tx: Executor,
  circleId: string,
  userId: string,
  at: Date,
): Promise<BorrowRequestRow[]> {
  return tx
    .update(borrowRequests)
    .set({ status: 'CLOSED', answeredAt: at })
    .where(and(involving(circleId, userId), inArray(borrowRequests.status, OPEN)))
    .returning()
}

/** The asks in the circle that `userId` made or that are of items `userId` holds. */
function involving(circleId: string, userId: string) {
  const heldByUser = sql`${borrowRequests.itemId} in (select i.id from items i where i.circle_id = ${circleId} and i.owner_id = ${userId})`
  return and(eq(borrowRequests.circleId, circleId), or(eq(borrowRequests.askerId, userId), heldByUser))
}

/**
 * The items of the OFFERED asks `closeInvolving` would close, locked in id order (a departure locks
 * them before it closes their asks: item, then ask, the order of an answer or a withdrawal).
 */
export async function lockOfferedItemsInvolving(tx: Executor, circleId: string, userId: string) {
  const offered = await tx
    .selectDistinct({ itemId: borrowRequests.itemId })
    .from(borrowRequests)
    .where(and(involving(circleId, userId), eq(borrowRequests.status, 'OFFERED')))
    .orderBy(asc(borrowRequests.itemId))
  for (const { itemId } of offered) await lockItem(tx, itemId)
  return offered.map((row) => row.itemId)
}

/** Closes every open ask of an item (it went to someone else for good). */
export function closeForItem(tx: Executor, itemId: string, at: Date): Promise<BorrowRequestRow[]> {
  return tx
    .update(borrowRequests)
    .set({ status: 'CLOSED', answeredAt: at })
    .where(and(eq(borrowRequests.itemId, itemId), inArray(borrowRequests.status, OPEN)))
    .returning()
}

/** The item, locked for the rest of the transaction (as a handover request locks it). */
export async function lockItem(tx: Executor, itemId: string) {
  const [row] = await tx.select().from(items).where(eq(items.id, itemId)).for('update')
  return row
}

export async function findItem(db: Executor, itemId: string) {
  const [row] = await db.select().from(items).where(eq(items.id, itemId))
  return row
}

/** The borrower of the item's ACTIVE loan, if it is out. */
export async function activeLoan(db: Executor, itemId: string) {
  const [row] = await db
    .select({ id: loans.id, borrowerId: loans.borrowerId })
    .from(loans)
    .where(and(eq(loans.itemId, itemId), eq(loans.status, 'ACTIVE')))
    .limit(1)
  return row
}

export async function hasPendingHandover(db: Executor, itemId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: handovers.id })
    .from(handovers)
    .where(and(eq(handovers.itemId, itemId), eq(handovers.status, 'PENDING')))
    .limit(1)
  return Boolean(row)
}

/** Whether the user is a member of the circle; `share` holds the membership row (a removal waits). */
export async function isMember(db: Executor, circleId: string, userId: string, lock?: 'share') {
  const query = db
    .select({ id: circleMembers.id })
    .from(circleMembers)
    .where(and(eq(circleMembers.circleId, circleId), eq(circleMembers.userId, userId)))
  const [row] = lock ? await query.for('share') : await query
  return Boolean(row)
}

export async function findUser(db: Executor, id: string) {
  const [row] = await db.select().from(users).where(eq(users.id, id))
  return row
}

/** Whether the asker has an open ask for the item (the unique index's rule, checked before the insert). */
export async function hasOpenAsk(db: Executor, itemId: string, askerId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: borrowRequests.id })
    .from(borrowRequests)
    .where(
      and(
        eq(borrowRequests.itemId, itemId),
        eq(borrowRequests.askerId, askerId),
        inArray(borrowRequests.status, OPEN),
      ),
    )
    .limit(1)
  return Boolean(row)
}

/** The asker's open ask of the item becomes BORROWED (the owner lent it to them directly). */
export function markBorrowed(
  tx: Executor,
  itemId: string,
  askerId: string,
  at: Date,
): Promise<BorrowRequestRow[]> {
  return tx
    .update(borrowRequests)
    .set({ status: 'BORROWED', answeredAt: at })
    .where(
      and(
        eq(borrowRequests.itemId, itemId),
        eq(borrowRequests.askerId, askerId),
        inArray(borrowRequests.status, OPEN),
      ),
    )
    .returning()
}
