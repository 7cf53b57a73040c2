import { bigint, integer, pgTable, varchar } from 'drizzle-orm/pg-core'

/**
 * Rate-limit counters shared by every instance on one PostgreSQL (rate-limiter-flexible's own layout;
 * lib/rate-limits.ts). Keys are a rule name and a hash of who is counted, never an email or address.
 * The embedded mode counts in memory and leaves this table empty.
 */
export const rateLimits = pgTable('rate_limits', {
  key: varchar('key', { length: 255 }).primaryKey(),
  points: integer('points').notNull().default(0),
  /** Epoch milliseconds when the window ends. */
  expire: bigint('expire', { mode: 'number' }),
})
