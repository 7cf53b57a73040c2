import { eq } from 'drizzle-orm'
import { loans, users } from '../../src/db/schema'
import type { SignedIn } from './circles'
import { createItem } from './handovers'
import type { TestApp } from './test-app'

/** A clock the app reads "now" from (BuildAppOptions.clock); tests move it, nothing sleeps. */
export function testClock(start: string | Date) {
  let now = new Date(start).getTime()
  return {
    now: () => new Date(now),
    set(at: string | Date) {
      now = new Date(at).getTime()
    },
    advance(ms: number) {
      now += ms
    },
  }
}

/**
 * An ACTIVE loan straight in the database (the reminders and the calendar feed only read loans): a new
 * item of the lender's, lent to the borrower until `dueAt`.
 */
export async function insertLoan(
  t: TestApp,
  opts: {
    lender: SignedIn
    borrower: SignedIn
    circleId: string
    dueAt: string | Date
    startedAt?: string | Date
    itemName?: string
  },
) {
  const item = await createItem(t, opts.lender, opts.circleId, opts.itemName ?? 'Cordless drill')
  const [loan] = await t.database.db
    .insert(loans)
    .values({
      circleId: opts.circleId,
      itemId: item.id,
      lenderId: opts.lender.user.id,
      borrowerId: opts.borrower.user.id,
      dueAt: new Date(opts.dueAt),
      startedAt: new Date(opts.startedAt ?? new Date(new Date(opts.dueAt).getTime() - 14 * 86_400_000)),
    })
    .returning()
  return { loan: loan!, item }
}

export async function setDueAt(t: TestApp, loanId: string, dueAt: string | Date) {
  await t.database.db
    .update(loans)
    .set({ dueAt: new Date(dueAt) })
    .where(eq(loans.id, loanId))
}

export async function setReturned(t: TestApp, loanId: string) {
  await t.database.db
    .update(loans)
    .set({ status: 'RETURNED', returnedAt: new Date() })
    .where(eq(loans.id, loanId))
}

export async function setTimeZone(t: TestApp, who: SignedIn, timeZone: string | null) {
  await t.database.db.update(users).set({ timeZone }).where(eq(users.id, who.user.id))
}
