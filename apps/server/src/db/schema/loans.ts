import { sql } from 'drizzle-orm'
import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { circles } from './circles'
import { handovers } from './handovers'
import { items } from './items'
import { users } from './users'

const timestampTz = (name: string) => timestamp(name, { withTimezone: true })

/**
 * Lending (issue 26, docs/decisions/0047). A loan starts when the receiver confirms a LOAN handover:
 * the lender stays the item's owner (`items.owner_id`), the borrower holds it until `due_at`. It ends
 * when a RETURN handover is confirmed (RETURNED). At most one ACTIVE loan per item. `recalled_at` is set
 * when the borrower left or was removed from the circle: the item is to go back to its lender.
 */
export const loans = pgTable(
  'loans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    circleId: uuid('circle_id')
      .notNull()
      .references(() => circles.id, { onDelete: 'cascade' }),
    itemId: uuid('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    lenderId: uuid('lender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    borrowerId: uuid('borrower_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['ACTIVE', 'RETURNED'] })
      .notNull()
      .default('ACTIVE'),
    /** When the item is due back; changed by an extension or by the lender. */
    dueAt: timestampTz('due_at').notNull(),
    /** The LOAN handover whose confirmation started the loan. */
    handoverId: uuid('handover_id').references(() => handovers.id, { onDelete: 'set null' }),
    startedAt: timestampTz('started_at').notNull().defaultNow(),
    /** The borrower left or was removed: the item is to be returned (docs/decisions/0047). */
    recalledAt: timestampTz('recalled_at'),
    recallReason: text('recall_reason', { enum: ['LEFT', 'REMOVED'] }),
    returnedAt: timestampTz('returned_at'),
    /** The RETURN handover whose confirmation ended it (null when the lender recorded it alone). */
    returnHandoverId: uuid('return_handover_id').references(() => handovers.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('loans_one_active_per_item')
      .on(t.itemId)
      .where(sql`${t.status} = 'ACTIVE'`),
    index('loans_borrower_idx').on(t.borrowerId),
    index('loans_lender_idx').on(t.lenderId),
    /** The reminder scan: active loans by due date. */
    index('loans_active_due_idx')
      .on(t.dueAt)
      .where(sql`${t.status} = 'ACTIVE'`),
  ],
)

/**
 * A borrower's wish for a later return date (or, once answered, its outcome). The lender's own change
 * of the date needs no request: it is applied at once and appended to the ledger.
 */
export const loanExtensions = pgTable(
  'loan_extensions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    loanId: uuid('loan_id')
      .notNull()
      .references(() => loans.id, { onDelete: 'cascade' }),
    requestedById: uuid('requested_by_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    dueAt: timestampTz('due_at').notNull(),
    message: text('message'),
    status: text('status', { enum: ['PENDING', 'ACCEPTED', 'DECLINED', 'CANCELLED'] })
      .notNull()
      .default('PENDING'),
    createdAt: timestampTz('created_at').notNull().defaultNow(),
    answeredAt: timestampTz('answered_at'),
  },
  (t) => [
    uniqueIndex('loan_extensions_one_pending')
      .on(t.loanId)
      .where(sql`${t.status} = 'PENDING'`),
  ],
)

/**
 * "Ask to borrow" and the waiting list: a member's wish to borrow an item someone else owns. WAITING
 * while the owner has not answered or the item is out (queued by `created_at`); OFFERED when the owner
 * turned it into a LOAN handover request (`handover_id`); BORROWED once that was confirmed; DECLINED
 * (with an optional reason), WITHDRAWN by the asker, or CLOSED when the item or the asker left.
 */
export const borrowRequests = pgTable(
  'borrow_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    circleId: uuid('circle_id')
      .notNull()
      .references(() => circles.id, { onDelete: 'cascade' }),
    itemId: uuid('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    askerId: uuid('asker_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The wished period: from (null = as soon as possible) until. */
    wishedFrom: timestampTz('wished_from'),
    wishedUntil: timestampTz('wished_until').notNull(),
    message: text('message'),
    status: text('status', {
      enum: ['WAITING', 'OFFERED', 'BORROWED', 'DECLINED', 'WITHDRAWN', 'CLOSED'],
    })
      .notNull()
      .default('WAITING'),
    declineReason: text('decline_reason'),
    handoverId: uuid('handover_id').references(() => handovers.id, { onDelete: 'set null' }),
    createdAt: timestampTz('created_at').notNull().defaultNow(),
    answeredAt: timestampTz('answered_at'),
  },
  (t) => [
    /** One open wish per asker and item. */
    uniqueIndex('borrow_requests_one_open')
      .on(t.itemId, t.askerId)
      .where(sql`${t.status} in ('WAITING', 'OFFERED')`),
    index('borrow_requests_item_idx').on(t.itemId, t.createdAt),
    index('borrow_requests_asker_idx').on(t.askerId),
  ],
)

/**
 * Each reminder or overdue notice of a loan, claimed before it is sent: the primary key makes a second
 * claim of the same (loan, kind, due date) fail, on any number of instances, across restarts. `due_at`
 * is part of the key, so a changed return date gets its own reminders.
 */
export const loanReminders = pgTable(
  'loan_reminders',
  {
    loanId: uuid('loan_id')
      .notNull()
      .references(() => loans.id, { onDelete: 'cascade' }),
    /** e.g. BEFORE_0 (first offset), BEFORE_1, OVERDUE_1..3, LENDER_OVERDUE. */
    kind: text('kind').notNull(),
    dueAt: timestampTz('due_at').notNull(),
    claimedAt: timestampTz('claimed_at').notNull().defaultNow(),
    /** Which instance claimed it (for the operator's log). */
    claimedBy: text('claimed_by'),
    sentAt: timestampTz('sent_at'),
    attempts: integer('attempts').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.loanId, t.kind, t.dueAt] })],
)

/** A person's secret calendar feed URL: only the token's SHA-256 hash is stored; revoking deletes the row. */
export const calendarFeeds = pgTable(
  'calendar_feeds',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestampTz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('calendar_feeds_token_hash_key').on(t.tokenHash)],
)
