import { and, count, desc, eq, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client'
import { prepared } from '../../db/prepared'
import { circleMembers, circles, items, users } from '../../db/schema'

export type ItemRow = typeof items.$inferSelect

/** Whether the holder is still a member of the item's circle. */
const ownerIsMember = sql<boolean>`exists (select 1 from circle_members m where m.circle_id = ${items.circleId} and m.user_id = ${items.ownerId})`

/** What the handovers of an item allow: a PENDING one blocks changes, a CONFIRMED one locks it. */
const hasPendingHandover = sql<boolean>`exists (select 1 from handovers h where h.item_id = ${items.id} and h.status = 'PENDING')`
const locked = sql<boolean>`exists (select 1 from handovers h where h.item_id = ${items.id} and h.status = 'CONFIRMED')`

const itemView = {
  item: items,
  ownerName: users.name,
  circleName: circles.name,
  circleAdminId: circles.adminId,
  ownerIsMember,
  hasPendingHandover,
  locked,
}

export type ItemViewRow = {
  item: ItemRow
  ownerName: string
  circleName: string
  circleAdminId: string
  ownerIsMember: boolean
  hasPendingHandover: boolean
  locked: boolean
}

function selectItems(db: Executor) {
  return db
    .select(itemView)
    .from(items)
    .innerJoin(users, eq(users.id, items.ownerId))
    .innerJoin(circles, eq(circles.id, items.circleId))
}

export async function findItem(db: Executor, id: string): Promise<ItemViewRow | undefined> {
  const [row] = await selectItems(db).where(eq(items.id, id)).limit(1)
  return row
}

export async function findItemByImage(db: Executor, imageId: string): Promise<ItemViewRow | undefined> {
  const [row] = await selectItems(db).where(eq(items.imageId, imageId)).limit(1)
  return row
}

/** The items a user holds, in any circle, isolated ones included; newest first. */
export function listHeldBy(db: Executor, userId: string): Promise<ItemViewRow[]> {
  return selectItems(db).where(eq(items.ownerId, userId)).orderBy(desc(items.createdAt))
}

/**
 * A circle's items, without those isolated from it (their holder left); newest first. The circle page
 * and the items page ask on every view, so the query is prepared once.
 */
export function listInCircle(db: Executor, circleId: string): Promise<ItemViewRow[]> {
  const query = prepared(db, 'items_in_circle', (d) =>
    selectItems(d)
      .where(and(eq(items.circleId, sql.placeholder('circleId')), ownerIsMember))
      .orderBy(desc(items.createdAt)),
  )
  return query.execute({ circleId })
}

/** Every item a user may see: those of their circles, and their own isolated ones. */
export function listVisibleTo(db: Executor, userId: string): Promise<ItemViewRow[]> {
  const inMyCircles = sql`exists (select 1 from circle_members m where m.circle_id = ${items.circleId} and m.user_id = ${userId})`
  return selectItems(db)
    .where(sql`(${items.ownerId} = ${userId} or (${inMyCircles} and ${ownerIsMember}))`)
    .orderBy(desc(items.createdAt))
}

export async function countHeldBy(db: Executor, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(items).where(eq(items.ownerId, userId))
  return row?.n ?? 0
}

export async function insertItem(
  db: Executor,
  values: { circleId: string; ownerId: string; name: string; description: string | null },
): Promise<ItemRow> {
  const [row] = await db
    .insert(items)
    .values({ ...values, ownership: 'COMPLETE', createdById: values.ownerId })
    .returning()
  return row!
}

export async function updateItem(
  db: Executor,
  id: string,
  values: Partial<Pick<ItemRow, 'name' | 'description' | 'imageId' | 'imageType' | 'ownerId' | 'ownership'>>,
): Promise<ItemRow | undefined> {
  const [row] = await db
    .update(items)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(items.id, id))
    .returning()
  return row
}

/** Locks the item row for the rest of the transaction (edits, uploads and deletes run one at a time). */
export async function lockItem(db: Executor, id: string): Promise<ItemRow | undefined> {
  const [row] = await db.select().from(items).where(eq(items.id, id)).for('update').limit(1)
  return row
}

export async function deleteItem(db: Executor, id: string): Promise<void> {
  await db.delete(items).where(eq(items.id, id))
}

/** A member's partially held items of a circle pass to its admin; returns the items moved. */
/** The items a departing member holds with partial ownership in the circle, locked, oldest first. */
export function lockPartialItems(db: Executor, circleId: string, holderId: string) {
  return db
    .select({ id: items.id, name: items.name, createdById: items.createdById })
    .from(items)
    .where(and(eq(items.circleId, circleId), eq(items.ownerId, holderId), eq(items.ownership, 'PARTIAL')))
    .orderBy(items.createdAt, items.id)
    .for('update')
}

export async function setHolder(
  db: Executor,
  id: string,
  holder: { ownerId: string; ownership: 'COMPLETE' | 'PARTIAL' },
): Promise<void> {
  await db
    .update(items)
    .set({ ...holder, updatedAt: new Date() })
    .where(eq(items.id, id))
}

export async function userName(db: Executor, id: string): Promise<string> {
  const [row] = await db.select({ name: users.name }).from(users).where(eq(users.id, id))
  return row?.name ?? ''
}

export async function isMember(db: Executor, circleId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: circleMembers.id })
    .from(circleMembers)
    .where(and(eq(circleMembers.circleId, circleId), eq(circleMembers.userId, userId)))
    .limit(1)
  return Boolean(row)
}
