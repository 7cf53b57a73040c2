import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'

/**
 * Emails are written here in the same transaction as the change that causes them; the outbox worker
 * sends them with retries, so an SMTP outage loses nothing.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    toAddress: text('to_address').notNull(),
    replyTo: text('reply_to'),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body').notNull(),
    /** For notices: the one-click unsubscribe URL (POST), sent as List-Unsubscribe. */
    listUnsubscribe: text('list_unsubscribe'),
    /**
     * pending -> sending (claimed, leased until next_attempt_at; attempts is the claim's fencing token) ->
     * sent | logged (no SMTP configured) | pending again (a certain failure, retried) | failed (gave up)
     * | unknown (the conversation broke after the message may have been taken: never resent).
     * Every end state drops subject, bodies, reply-to and unsubscribe URL (docs/decisions/0022).
     */
    status: text('status', { enum: ['pending', 'sending', 'sent', 'logged', 'failed', 'unknown'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('outbox_due_idx').on(t.status, t.nextAttemptAt)],
)
