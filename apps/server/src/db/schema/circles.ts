import { index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { users } from './users'

const timestampTz = (name: string) => timestamp(name, { withTimezone: true })

/** A circle; `adminId` is the one source of the ADMIN role (members carry no role column). */
export const circles = pgTable(
  'circles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description'),
    adminId: uuid('admin_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    createdAt: timestampTz('created_at').notNull().defaultNow(),
    updatedAt: timestampTz('updated_at').notNull().defaultNow(),
  },
  (t) => [index('circles_admin_idx').on(t.adminId)],
)

export const circleMembers = pgTable(
  'circle_members',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    circleId: uuid('circle_id')
      .notNull()
      .references(() => circles.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    joinedAt: timestampTz('joined_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('circle_members_circle_user_key').on(t.circleId, t.userId),
    index('circle_members_user_idx').on(t.userId),
  ],
)

/**
 * Who is no longer a member of a circle, and why: they left, or the admin removed them. The newest
 * departure per person and circle; joining again does not need it gone (membership is checked first).
 * Lets a former member be told why a circle's pages are closed to them (docs/decisions/0027).
 */
export const circleDepartures = pgTable(
  'circle_departures',
  {
    circleId: uuid('circle_id')
      .notNull()
      .references(() => circles.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reason: text('reason', { enum: ['LEFT', 'REMOVED'] }).notNull(),
    departedAt: timestampTz('departed_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.circleId, t.userId] }), index('circle_departures_user_idx').on(t.userId)],
)

/**
 * Invitations by email or QR code. Only the SHA-256 of the token is stored. EXPIRED is not stored: a
 * PENDING row past `expiresAt` is reported as EXPIRED.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    circleId: uuid('circle_id')
      .notNull()
      .references(() => circles.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    type: text('type', { enum: ['email', 'qr'] })
      .notNull()
      .default('email'),
    status: text('status', { enum: ['PENDING', 'ACCEPTED', 'CANCELLED'] })
      .notNull()
      .default('PENDING'),
    tokenHash: text('token_hash').notNull(),
    invitedById: uuid('invited_by_id').references(() => users.id, { onDelete: 'set null' }),
    acceptedById: uuid('accepted_by_id').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestampTz('expires_at').notNull(),
    acceptedAt: timestampTz('accepted_at'),
    createdAt: timestampTz('created_at').notNull().defaultNow(),
    updatedAt: timestampTz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('invitations_token_hash_key').on(t.tokenHash),
    index('invitations_circle_status_idx').on(t.circleId, t.status),
    index('invitations_email_idx').on(t.email),
  ],
)
