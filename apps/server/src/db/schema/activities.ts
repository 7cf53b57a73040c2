import { bigserial, customType, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { ACTIVITY_TYPES } from '@circles/shared'
import { users } from './users'

/**
 * A user's activity feed (spec 000 §3): one row per recipient, written in the transaction of its
 * cause. `data` is a snapshot of the names at that moment; it never holds a comment or a secret.
 */
export const activities = pgTable(
  'activities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ACTIVITY_TYPES }).notNull(),
    title: text('title').notNull(),
    data: jsonb('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('activities_user_recent_idx').on(t.userId, t.createdAt.desc())],
)

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' })

/** @socket.io/postgres-adapter's table for payloads too large for NOTIFY (its documented schema). */
export const socketIoAttachments = pgTable('socket_io_attachments', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).defaultNow(),
  payload: bytea('payload'),
})
