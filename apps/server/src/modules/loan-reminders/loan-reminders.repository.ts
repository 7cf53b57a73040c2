import { and, asc, eq, gte, lte, or, sql } from 'drizzle-orm'
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
  pushLoanReminders: u.pushLoanReminders,
  deletedAt: u.deletedAt,
})

/**
 * One page of the reminder scan: ACTIVE loans due in [from, to], after the keyset `after`, in due
 * order, with their item's name, both parties and the kinds of reminder already claimed for this due
 * date (one indexed range over loans_active_due_idx, the rest by primary key).
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
      // The reminders of this due date some instance claimed already, read with the loan: the scan
      // that finds everything claimed (every interval's) words, renders and writes nothing.
      claimed: sql<string[] | string | null>`(
        select json_agg(r.kind) from ${loanReminders} r
        where r.loan_id = ${loans.id} and r.due_at = date_trunc('milliseconds', ${loans.dueAt}))`,
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

/** The kinds `dueLoansPage` read as claimed (a json array; drivers may hand it over parsed or as text). */
export function claimedKinds(loan: DueLoan): Set<string> {
  const value = typeof loan.claimed === 'string' ? (JSON.parse(loan.claimed) as string[]) : loan.claimed
  return new Set(value ?? [])
}

/**
 * Claims the reminders in the caller's transaction; returns the keys this call won. A reminder
 * another instance claimed (committed, or still in its transaction: the insert waits for it) is
 * skipped, so each is sent once. One statement with one JSON parameter for the whole batch.
 */
export async function claim(tx: Executor, claims: Claim[], by: string, now: Date): Promise<Set<string>> {
  if (claims.length === 0) return new Set()
  const json = JSON.stringify(
    claims.map((c) => ({ loan_id: c.loanId, kind: c.kind, due_at: c.dueAt.toISOString() })),
  )
  const at = now.toISOString()
  const result = (await tx.execute(sql`
    insert into ${loanReminders} (loan_id, kind, due_at, claimed_by, claimed_at, sent_at, attempts)
    select loan_id, kind, due_at, ${by}, ${at}::timestamptz, ${at}::timestamptz, 1
    from json_to_recordset(${json}::json) as t(loan_id uuid, kind text, due_at timestamptz)
    on conflict do nothing
    returning loan_id, kind, (extract(epoch from due_at) * 1000)::float8 as due_ms`)) as unknown as {
    rows: { loan_id: string; kind: string; due_ms: number | string }[]
  }
  return new Set(
    result.rows.map((r) => claimKey({ loanId: r.loan_id, kind: r.kind, dueAt: new Date(Number(r.due_ms)) })),
  )
}

export { claimKey }
