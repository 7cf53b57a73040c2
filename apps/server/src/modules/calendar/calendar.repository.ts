import { and, asc, eq, or } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Executor } from '../../db/client'
import { calendarFeeds, items, loans, users } from '../../db/schema'

export function findFeed(db: Executor, userId: string) {
  return db
    .select()
    .from(calendarFeeds)
    .where(eq(calendarFeeds.userId, userId))
    .then((rows) => rows[0])
}

/** The person whose feed this token hash opens (not a deleted account), with their language and zone. */
export function findOwnerByHash(db: Executor, tokenHash: string) {
  return db
    .select({
      userId: users.id,
      language: users.language,
      timeZone: users.timeZone,
      deletedAt: users.deletedAt,
    })
    .from(calendarFeeds)
    .innerJoin(users, eq(users.id, calendarFeeds.userId))
    .where(eq(calendarFeeds.tokenHash, tokenHash))
    .then((rows) => rows[0])
}

/** Makes or replaces the person's feed: the old URL stops working in the same statement. */
export async function replaceFeed(tx: Executor, userId: string, tokenHash: string, createdAt: Date) {
  await tx
    .insert(calendarFeeds)
    .values({ userId, tokenHash, createdAt })
    .onConflictDoUpdate({ target: calendarFeeds.userId, set: { tokenHash, createdAt } })
}

export async function deleteFeed(tx: Executor, userId: string) {
  await tx.delete(calendarFeeds).where(eq(calendarFeeds.userId, userId))
}

const borrower = alias(users, 'borrower')
const lender = alias(users, 'lender')

/** The person's ACTIVE loans, as borrower and as lender, by due date. */
export function activeLoansOf(db: Executor, userId: string) {
  return db
    .select({
      id: loans.id,
      itemId: loans.itemId,
      itemName: items.name,
      dueAt: loans.dueAt,
      borrowerId: loans.borrowerId,
      borrowerName: borrower.name,
      lenderName: lender.name,
    })
    .from(loans)
    .innerJoin(items, eq(items.id, loans.itemId))
    .innerJoin(borrower, eq(borrower.id, loans.borrowerId))
    .innerJoin(lender, eq(lender.id, loans.lenderId))
    .where(and(eq(loans.status, 'ACTIVE'), or(eq(loans.borrowerId, userId), eq(loans.lenderId, userId))))
    .orderBy(asc(loans.dueAt), asc(loans.id))
}
