import { and, desc, eq, inArray, isNull, or, type SQL } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Executor } from '../../db/client'
import { circleMembers, circles, handovers, items, loanExtensions, loans, users } from '../../db/schema'

export type LoanRow = typeof loans.$inferSelect
export type LoanExtensionRow = typeof loanExtensions.$inferSelect

const lender = alias(users, 'lender')
const borrower = alias(users, 'borrower')
const pendingReturn = alias(handovers, 'pending_return')

/** A loan with what its answer shows: names, the item's picture, a pending return and extension. */
const loanView = {
  loan: loans,
  itemName: items.name,
  imageId: items.imageId,
  imageType: items.imageType,
  circleName: circles.name,
  lenderName: lender.name,
  borrowerName: borrower.name,
  returnHandoverId: pendingReturn.id,
  returnSenderId: pendingReturn.senderId,
  extension: loanExtensions,
}
export type LoanViewRow = {
  loan: LoanRow
  itemName: string
  imageId: string | null
  imageType: 'jpg' | 'png' | 'webp' | null
  circleName: string
  lenderName: string
  borrowerName: string
  returnHandoverId: string | null
  returnSenderId: string | null
  extension: LoanExtensionRow | null
}

/** One query per answer: at most one PENDING return per item and one PENDING extension per loan. */
function selectLoans(db: Executor, where: SQL | undefined) {
  return db
    .select(loanView)
    .from(loans)
    .innerJoin(items, eq(items.id, loans.itemId))
    .innerJoin(circles, eq(circles.id, loans.circleId))
    .innerJoin(lender, eq(lender.id, loans.lenderId))
    .innerJoin(borrower, eq(borrower.id, loans.borrowerId))
    .leftJoin(
      pendingReturn,
      and(
        eq(pendingReturn.loanId, loans.id),
        eq(pendingReturn.kind, 'RETURN'),
        eq(pendingReturn.status, 'PENDING'),
      ),
    )
    .leftJoin(loanExtensions, and(eq(loanExtensions.loanId, loans.id), eq(loanExtensions.status, 'PENDING')))
    .where(where)
}

export async function findLoan(db: Executor, id: string): Promise<LoanViewRow | undefined> {
  const [row] = await selectLoans(db, eq(loans.id, id)).limit(1)
  return row
}

/** My loans as borrower or lender, ACTIVE only unless `all`; the soonest due first, then the newest. */
export function listFor(db: Executor, userId: string, role: 'borrowed' | 'lent', all: boolean) {
  const mine = role === 'borrowed' ? eq(loans.borrowerId, userId) : eq(loans.lenderId, userId)
  return selectLoans(db, and(mine, all ? undefined : eq(loans.status, 'ACTIVE'))).orderBy(
    desc(eq(loans.status, 'ACTIVE')),
    loans.dueAt,
    desc(loans.startedAt),
  )
}

/** The loan, locked for the rest of the transaction: every change of a loan runs one at a time. */
export async function lockLoan(tx: Executor, id: string): Promise<LoanRow | undefined> {
  const [row] = await tx.select().from(loans).where(eq(loans.id, id)).for('update')
  return row
}

/** The item's ACTIVE loan with its borrower's name (at most one: a partial unique index). */
export async function activeLoanOfItem(db: Executor, itemId: string) {
  const [row] = await db
    .select({ loan: loans, borrowerName: users.name })
    .from(loans)
    .innerJoin(users, eq(users.id, loans.borrowerId))
    .where(and(eq(loans.itemId, itemId), eq(loans.status, 'ACTIVE')))
    .limit(1)
  return row
}

export async function insertLoan(tx: Executor, values: typeof loans.$inferInsert): Promise<LoanRow> {
  const [row] = await tx.insert(loans).values(values).returning()
  return row!
}

export async function updateLoan(tx: Executor, id: string, values: Partial<typeof loans.$inferInsert>) {
  await tx.update(loans).set(values).where(eq(loans.id, id))
}

/** The item a loan starts on, locked (the order of every confirmation: handover, ledger head, item). */
export async function lockItem(tx: Executor, itemId: string) {
  const [row] = await tx
    .select({
      id: items.id,
      name: items.name,
      circleId: items.circleId,
      ownerId: items.ownerId,
      ownership: items.ownership,
    })
    .from(items)
    .where(eq(items.id, itemId))
    .for('update')
  return row
}

export async function itemName(db: Executor, itemId: string): Promise<string> {
  const [row] = await db.select({ name: items.name }).from(items).where(eq(items.id, itemId))
  return row?.name ?? ''
}

export async function userName(db: Executor, id: string): Promise<string> {
  const [row] = await db.select({ name: users.name }).from(users).where(eq(users.id, id))
  return row?.name ?? ''
}

export async function circleAdmin(db: Executor, circleId: string): Promise<string | undefined> {
  const [row] = await db.select({ adminId: circles.adminId }).from(circles).where(eq(circles.id, circleId))
  return row?.adminId
}

export async function isMember(db: Executor, circleId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: circleMembers.id })
    .from(circleMembers)
    .where(and(eq(circleMembers.circleId, circleId), eq(circleMembers.userId, userId)))
    .limit(1)
  return Boolean(row)
}

/** Whether every one of `userIds` is a member of the circle. */
export async function areMembers(db: Executor, circleId: string, userIds: string[]) {
  const wanted = [...new Set(userIds)]
  const rows = await db
    .select({ userId: circleMembers.userId })
    .from(circleMembers)
    .where(and(eq(circleMembers.circleId, circleId), inArray(circleMembers.userId, wanted)))
  return rows.length === wanted.length
}

/** The ACTIVE, not yet recalled loans of the circle that `userId` lent or borrowed, locked. */
export function lockOpenLoansInvolving(tx: Executor, circleId: string, userId: string) {
  return tx
    .select()
    .from(loans)
    .where(
      and(
        eq(loans.circleId, circleId),
        eq(loans.status, 'ACTIVE'),
        isNull(loans.recalledAt),
        or(eq(loans.borrowerId, userId), eq(loans.lenderId, userId)),
      ),
    )
    .orderBy(loans.startedAt, loans.id)
    .for('update')
}

export async function insertExtension(
  tx: Executor,
  values: typeof loanExtensions.$inferInsert,
): Promise<LoanExtensionRow> {
  const [row] = await tx.insert(loanExtensions).values(values).returning()
  return row!
}

export async function lockExtension(tx: Executor, id: string): Promise<LoanExtensionRow | undefined> {
  const [row] = await tx.select().from(loanExtensions).where(eq(loanExtensions.id, id)).for('update')
  return row
}

export async function answerExtension(
  tx: Executor,
  id: string,
  status: 'ACCEPTED' | 'DECLINED' | 'CANCELLED',
  at: Date,
): Promise<LoanExtensionRow> {
  const [row] = await tx
    .update(loanExtensions)
    .set({ status, answeredAt: at })
    .where(eq(loanExtensions.id, id))
    .returning()
  return row!
}

/** A recalled or ended loan's wish for a later date goes: CANCELLED. */
export async function cancelPendingExtensions(tx: Executor, loanId: string, at: Date) {
  await tx
    .update(loanExtensions)
    .set({ status: 'CANCELLED', answeredAt: at })
    .where(and(eq(loanExtensions.loanId, loanId), eq(loanExtensions.status, 'PENDING')))
}

/** Account deletion (docs/decisions/0035): the texts a deleted person wrote go, the rows stay. */
export async function eraseExtensionMessages(tx: Executor, userId: string) {
  await tx.update(loanExtensions).set({ message: null }).where(eq(loanExtensions.requestedById, userId))
}
