import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { users } from './users'

/**
 * Web Push (issue 27, docs/decisions/0053): one row per device that turned notices on. `endpoint` is the
 * push service's URL for that browser (a capability: never logged), `p256dh` and `auth` the browser's keys
 * for RFC 8291 encryption. A 404/410 from the push service deletes the row; so does signing out on that
 * device and deleting the account.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull().unique(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The last time the push service took a message for this device. */
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
  },
  (t) => [index('push_subscriptions_user_idx').on(t.userId)],
)

/**
 * Push messages waiting to go, written in the transaction of the change that causes them and sent by the
 * push worker after commit, with retries. A row names its subscription (whose keys stay there) and holds
 * the notice's title, body, tag and same-origin path, dropped once the row is done.
 */
export const pushOutbox = pgTable(
  'push_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    /** JSON `{ title, body, tag, url }`; '' once sent or given up. */
    payload: text('payload').notNull(),
    /**
     * pending -> sending (claimed, leased until next_attempt_at) -> sent | pending again (retried with
     * backoff) | failed (gave up). A lease that ran out is pending again: a push sent twice shows once
     * (same tag), so at least once is the right side here, unlike email.
     */
    status: text('status', { enum: ['pending', 'sending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('push_outbox_due_idx').on(t.status, t.nextAttemptAt)],
)
