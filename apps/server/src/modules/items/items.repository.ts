import type { TItemSort, TItemState } from '@circles/shared'
import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Executor } from '../../db/client'
import { prepared } from '../../db/prepared'
import { circleMembers, circles, items, loans, users } from '../../db/schema'

export type ItemRow = typeof items.$inferSelect

/** Whether the holder is still a member of the item's circle. */
const ownerIsMember = sql<boolean>`exists (select 1 from circle_members m where m.circle_id = ${items.circleId} and m.user_id = ${items.ownerId})`

/** What the handovers of an item allow: a PENDING one blocks changes, a CONFIRMED one locks it. */
const hasPendingHandover = sql<boolean>`exists (select 1 from handovers h where h.item_id = ${items.id} and h.status = 'PENDING')`
// A loan and its return (issue 26) never change the owner, so they do not lock the item.
const locked = sql<boolean>`exists (select 1 from handovers h where h.item_id = ${items.id} and h.status = 'CONFIRMED' and h.kind = 'TRANSFER')`

/** The borrower of the item's ACTIVE loan (issue 26), joined once per item: no query per item. */
const borrower = alias(users, 'borrower')

/** How many members wait to borrow it: asks WAITING or OFFERED (issue 26, docs/decisions/0048). */
const queueLength = sql<number>`(select count(*)::int from borrow_requests b where b.item_id = ${items.id} and b.status in ('WAITING', 'OFFERED'))`

const itemView = {
  item: items,
  ownerName: users.name,
  circleName: circles.name,
  circleAdminId: circles.adminId,
  ownerIsMember,
  hasPendingHandover,
  locked,
  // Issue 26 (docs/decisions/0047): the ACTIVE loan, left-joined (at most one per item).
  loanId: loans.id,
  loanBorrowerId: loans.borrowerId,
  loanBorrowerName: borrower.name,
  loanDueAt: loans.dueAt,
  loanRecalledAt: loans.recalledAt,
  queueLength,
}

export type ItemViewRow = {
  item: ItemRow
  ownerName: string
  circleName: string
  circleAdminId: string
  ownerIsMember: boolean
  hasPendingHandover: boolean
  locked: boolean
  loanId: string | null
  loanBorrowerId: string | null
  loanBorrowerName: string | null
  loanDueAt: Date | null
  loanRecalledAt: Date | null
  queueLength: number
}

function selectItems(db: Executor) {
  return db
    .select(itemView)
    .from(items)
    .innerJoin(users, eq(users.id, items.ownerId))
    .innerJoin(circles, eq(circles.id, items.circleId))
    .leftJoin(loans, and(eq(loans.itemId, items.id), eq(loans.status, 'ACTIVE')))
    .leftJoin(borrower, eq(borrower.id, loans.borrowerId))
}

export async function findItem(db: Executor, id: string): Promise<ItemViewRow | undefined> {
  const [row] = await selectItems(db).where(eq(items.id, id)).limit(1)
  return row
}

/** Issue 27: the item a label's code names. */
export async function findItemByCode(db: Executor, code: string): Promise<ItemViewRow | undefined> {
  const [row] = await selectItems(db).where(eq(items.code, code)).limit(1)
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

/** Issue 26: the item is out on an ACTIVE loan (the `on-loan` state; `available` excludes it). */
const onLoan = sql<boolean>`exists (select 1 from loans l where l.item_id = ${items.id} and l.status = 'ACTIVE')`

/** The text the trigram index of migration 0009 covers: the expression must stay exactly this. */
const searchText = sql`(${items.name} || ' ' || coalesce(${items.description}, ''))`

/** When the item last changed hands by a confirmed handover (null if never). */
const lastHandedOver = sql`(select max(h.answered_at) from handovers h where h.item_id = ${items.id} and h.status = 'CONFIRMED')`

/** `%`, `_` and `\` are literal in a search: escaped for ILIKE (whose escape character is `\`). */
export function likePattern(word: string) {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

const STATE: Record<TItemState, SQL> = {
  available: sql`(not ${hasPendingHandover} and ${ownerIsMember} and not ${onLoan})`,
  pending: hasPendingHandover,
  'on-loan': onLoan,
  'handed-over': locked,
}

const ORDER: Record<TItemSort, SQL[]> = {
  newest: [desc(items.createdAt), desc(items.id)],
  name: [asc(sql`lower(${items.name})`), asc(items.name), desc(items.createdAt), desc(items.id)],
  'recent-handover': [sql`${lastHandedOver} desc nulls last`, desc(items.createdAt), desc(items.id)],
}

export interface ItemSearch {
  /** Whose view: every item this user may see, or (with `inCircle`) one circle's items. */
  viewerId: string
  inCircle?: string
  words: string[]
  circleId?: string
  holderId?: string
  state?: TItemState
  sort: TItemSort
  limit?: number
  offset: number
}

/**
 * The items lists with filters, order and a page (issue 23, docs/decisions/0031). Every word must occur
 * in the name or the description (case-insensitive; the trigram index serves words of three characters
 * or more). `total` counts every match, not only the page.
 */
export async function searchItems(
  db: Executor,
  s: ItemSearch,
): Promise<{ rows: ItemViewRow[]; total: number }> {
  const where: SQL[] = []
  if (s.inCircle) {
    where.push(eq(items.circleId, s.inCircle), ownerIsMember)
  } else {
    // A hashed subplan: the caller's circles are read once, not per item.
    const myCircles = sql`(select m.circle_id from circle_members m where m.user_id = ${s.viewerId})`
    where.push(
      sql`(${items.ownerId} = ${s.viewerId} or (${items.circleId} in ${myCircles} and ${ownerIsMember}))`,
    )
  }
  for (const word of s.words) where.push(sql`${searchText} ilike ${likePattern(word)}`)
  if (s.circleId) where.push(eq(items.circleId, s.circleId))
  if (s.holderId) where.push(eq(items.ownerId, s.holderId))
  if (s.state) where.push(STATE[s.state])
  const filter = and(...where)
  if (s.limit === undefined) {
    // The old answer: every match, in one query.
    const rows = await selectItems(db)
      .where(filter)
      .orderBy(...ORDER[s.sort])
      .offset(s.offset)
    return { rows, total: s.offset + rows.length }
  }
  // A page: the ids first (the order needs only the item's own columns), then the count, then the view
  // of those few items only; the view's per-item lookups never run for the rows that are not shown.
  const page = await db
    .select({ id: items.id })
    .from(items)
    .where(filter)
    .orderBy(...ORDER[s.sort])
    .limit(s.limit)
    .offset(s.offset)
  const [counted] = await db.select({ n: count() }).from(items).where(filter)
  const total = counted?.n ?? 0
  if (page.length === 0) return { rows: [], total }
  const ids = page.map((p) => p.id)
  const found = new Map((await selectItems(db).where(inArray(items.id, ids))).map((r) => [r.item.id, r]))
  return { rows: ids.flatMap((id) => found.get(id) ?? []), total }
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
