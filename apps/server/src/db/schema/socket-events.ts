import { bigserial, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * Every real-time event sent to a user's or a circle's room, kept a few minutes so a client that
 * reconnects (to this or another instance) gets what it missed (lib/socket-replay.ts,
 * docs/decisions/0043). `id` only grows; the client keeps the last one it saw. Old rows are pruned.
 */
export const socketEvents = pgTable(
  'socket_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** `user:<id>` or `circle:<id>`, as in plugins/socket.ts. */
    room: text('room').notNull(),
    event: text('event').notNull(),
    payload: jsonb('payload').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('socket_events_created_at_idx').on(t.createdAt)],
)
