import { and, asc, eq, gte, inArray, lte, or, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Executor } from '../../db/client'
import { items, loanReminders, loans, users } from '../../db/schema'

const borrower = alias(users, 'borrower')
const lender = alias(users, 'lender')

const person = <U extends typeof borrower | typeof lender>(u: U) => ({
  id: u.id,
  name: u.name,
  email: u.email,
  emailVerified: u.emailVerified,
  language: u.language,
  timeZone: u.timeZone,
  notifyLoanReminders: u.notifyLoanReminders,
  deletedAt: u.deletedAt,
})

/**
 * One page of the reminder scan: ACTIVE loans due in [from, to], after the keyset `after`, in due
 * order, with their item's name and both parties (one indexed range over loans_active_due_idx, the
 * rest by primary key).
 */
export function dueLoansPage(
  db: Executor,
  range: { from: Date; to: Date },
  after: { dueAt: Date; id: string } | null,
  limit: number,
) {
  return db
    .select({
      id: loans.id,
      circleId: loans.circleId,
      itemId: loans.itemId,
      itemName: items.name,
      dueAt: loans.dueAt,
      startedAt: loans.startedAt,
      borrower: person(borrower),
      lender: person(lender),
    })
    .from(loans)
    .innerJoin(items, eq(items.id, loans.itemId))
    .innerJoin(borrower, eq(borrower.id, loans.borrowerId))
    .innerJoin(lender, eq(lender.id, loans.lenderId))
    .where(
      and(
        eq(loans.status, 'ACTIVE'),
        gte(loans.dueAt, range.from),
        lte(loans.dueAt, range.to),
        // The keyset as a range the index serves (due_at >= last) plus the tie-break: an OR alone would
        // make every page read the window from its start again.
        after ? gte(loans.dueAt, after.dueAt) : undefined,
        after ? or(sql`${loans.dueAt} > ${after.dueAt}`, sql`${loans.id} > ${after.id}`) : undefined,
      ),
    )
    .orderBy(asc(loans.dueAt), asc(loans.id))
    .limit(limit)
}
export type DueLoan = Awaited<ReturnType<typeof dueLoansPage>>[number]

export interface Claim {
  loanId: string
  kind: string
  dueAt: Date
}

const claimKey = (c: Claim) => `${c.loanId}|${c.kind}|${c.dueAt.getTime()}`

/** Which of these reminders some instance claimed already (a plain read, before any transaction). */
export async function alreadyClaimed(db: Executor, claims: Claim[]): Promise<Set<string>> {
  if (claims.length === 0) return new Set()
  const rows = await db
    .select({ loanId: loanReminders.loanId, kind: loanReminders.kind, dueAt: loanReminders.dueAt })
    .from(loanReminders)
    .where(inArray(loanReminders.loanId, [...new Set(claims.map((c) => c.loanId))]))
  return new Set(rows.map(claimKey))
}

/**
 * Claims the reminders in the caller's transaction; returns the keys this call won. A reminder
 * another instance claimed (committed, or still in its transaction: the insert waits for it) is
 * skipped, so each is sent once.
 */
export async function claim(tx: Executor, claims: Claim[], by: string, now: Date): Promise<Set<string>> {
  if (claims.length === 0) return new Set()
  const rows = await tx
    .insert(loanReminders)
    .values(claims.map((c) => ({ ...c, claimedBy: by, claimedAt: now, sentAt: now, attempts: 1 })))
    .onConflictDoNothing()
    .returning({ loanId: loanReminders.loanId, kind: loanReminders.kind, dueAt: loanReminders.dueAt })
  return new Set(rows.map(claimKey))
}

export { claimKey }
