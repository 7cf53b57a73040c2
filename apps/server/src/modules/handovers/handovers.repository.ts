import { and, desc, eq, inArray, or } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Executor } from '../../db/client'
import { blocks, circleMembers, handovers, items, users } from '../../db/schema'

export type HandoverRow = typeof handovers.$inferSelect
export type NewHandover = typeof handovers.$inferInsert

const sender = alias(users, 'sender')
const receiver = alias(users, 'receiver')

const handoverView = {
  handover: handovers,
  senderName: sender.name,
  receiverName: receiver.name,
  itemName: items.name,
  imageId: items.imageId,
  imageType: items.imageType,
  blockId: blocks.id,
  blockHash: blocks.hash,
  blockHeight: blocks.height,
}
export type HandoverViewRow = {
  handover: HandoverRow
  senderName: string
  receiverName: string
  itemName: string
  imageId: string | null
  imageType: 'jpg' | 'png' | 'webp' | null
  blockId: string | null
  blockHash: string | null
  blockHeight: number | null
}

function selectHandovers(db: Executor) {
  return db
    .select(handoverView)
    .from(handovers)
    .innerJoin(sender, eq(sender.id, handovers.senderId))
    .innerJoin(receiver, eq(receiver.id, handovers.receiverId))
    .innerJoin(items, eq(items.id, handovers.itemId))
    .leftJoin(blocks, eq(blocks.handoverId, handovers.id))
}

export async function findHandover(db: Executor, id: string): Promise<HandoverViewRow | undefined> {
  const [row] = await selectHandovers(db).where(eq(handovers.id, id)).limit(1)
  return row
}

/** The handovers a user sent or received, newest first. */
export function listForUser(db: Executor, userId: string): Promise<HandoverViewRow[]> {
  return selectHandovers(db)
    .where(or(eq(handovers.senderId, userId), eq(handovers.receiverId, userId)))
    .orderBy(desc(handovers.createdAt))
}

export function listForItem(db: Executor, itemId: string): Promise<HandoverViewRow[]> {
  return selectHandovers(db).where(eq(handovers.itemId, itemId)).orderBy(desc(handovers.createdAt))
}

/** Locks the handover for the rest of the transaction: answers and cancels run one at a time. */
export async function lockHandover(tx: Executor, id: string): Promise<HandoverRow | undefined> {
  const [row] = await tx.select().from(handovers).where(eq(handovers.id, id)).for('update')
  return row
}

export async function insertHandover(tx: Executor, values: NewHandover): Promise<HandoverRow> {
  const [row] = await tx.insert(handovers).values(values).returning()
  return row!
}

export async function answerHandover(
  tx: Executor,
  id: string,
  values: Pick<HandoverRow, 'status' | 'receiverComment'> &
    Partial<Pick<HandoverRow, 'receiverNote' | 'receiverNoteSalt' | 'receiverAsDescribed'>>,
): Promise<void> {
  await tx
    .update(handovers)
    .set({ ...values, answeredAt: new Date() })
    .where(eq(handovers.id, id))
}

/** A cancelled request stays in the item's history, marked CANCELLED (docs/decisions/0029). */
export async function cancelHandover(tx: Executor, id: string): Promise<void> {
  await tx.update(handovers).set({ status: 'CANCELLED', answeredAt: new Date() }).where(eq(handovers.id, id))
}

/** A member leaves a circle: the requests they sent or would have answered there are cancelled. */
export function cancelPendingInvolving(
  tx: Executor,
  circleId: string,
  userId: string,
): Promise<HandoverRow[]> {
  return tx
    .update(handovers)
    .set({ status: 'CANCELLED', answeredAt: new Date() })
    .where(
      and(
        eq(handovers.circleId, circleId),
        eq(handovers.status, 'PENDING'),
        or(eq(handovers.senderId, userId), eq(handovers.receiverId, userId)),
      ),
    )
    .returning()
}

/** A confirmed LOAN handover names the loan it started (issue 26). */
export async function setLoanId(tx: Executor, id: string, loanId: string): Promise<void> {
  await tx.update(handovers).set({ loanId }).where(eq(handovers.id, id))
}

export async function hasPending(db: Executor, itemId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: handovers.id })
    .from(handovers)
    .where(and(eq(handovers.itemId, itemId), eq(handovers.status, 'PENDING')))
    .limit(1)
  return Boolean(row)
}

export async function findItem(db: Executor, itemId: string) {
  const [row] = await db
    .select({ circleId: items.circleId, ownerId: items.ownerId })
    .from(items)
    .where(eq(items.id, itemId))
  return row
}

/**
 * Whether the user is a member of the circle. `share` locks the membership row until the transaction
 * ends, so a concurrent removal waits for it (or it for the removal) instead of slipping in between.
 */
/** Whether every one of `userIds` is a member of the circle, in one query. */
export async function areMembers(db: Executor, circleId: string, userIds: string[]) {
  const wanted = [...new Set(userIds)]
  const rows = await db
    .select({ userId: circleMembers.userId })
    .from(circleMembers)
    .where(and(eq(circleMembers.circleId, circleId), inArray(circleMembers.userId, wanted)))
  return rows.length === wanted.length
}

export async function isMember(db: Executor, circleId: string, userId: string, lock?: 'share') {
  const query = db
    .select({ id: circleMembers.id })
    .from(circleMembers)
    .where(and(eq(circleMembers.circleId, circleId), eq(circleMembers.userId, userId)))
  const [row] = lock ? await query.for('share') : await query
  return Boolean(row)
}
