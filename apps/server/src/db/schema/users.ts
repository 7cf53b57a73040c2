import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** Stored lower-cased; the unique index is the source of truth for USER_EXISTS. */
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    emailVerified: boolean('email_verified').notNull().default(false),
    language: text('language', { enum: ['en', 'de'] })
      .notNull()
      .default('en'),
    /** Bumped on password reset; a JWT carrying an older version is refused. */
    sessionVersion: integer('session_version').notNull().default(0),
    /** Email notices the user wants (issue 13); each kind on until switched off. */
    notifyHandoverRequests: boolean('notify_handover_requests').notNull().default(true),
    notifyHandoverAnswers: boolean('notify_handover_answers').notNull().default(true),
    notifyInvitations: boolean('notify_invitations').notNull().default(true),
    /** Lending notices (issue 26): return reminders and overdue notices (borrower and lender). */
    notifyLoanReminders: boolean('notify_loan_reminders').notNull().default(true),
    /** Lending notices: asks to borrow, offers to the next in line, declines. */
    notifyBorrowRequests: boolean('notify_borrow_requests').notNull().default(true),
    /** Lending notices: extensions asked and answered, date changes, returns started and confirmed. */
    notifyLoanChanges: boolean('notify_loan_changes').notNull().default(true),
    /** Push notices (issue 27, docs/decisions/0053) on the person's devices that turned them on. */
    pushHandoverRequests: boolean('push_handover_requests').notNull().default(true),
    pushHandoverAnswers: boolean('push_handover_answers').notNull().default(true),
    pushInvitations: boolean('push_invitations').notNull().default(true),
    pushLoanReminders: boolean('push_loan_reminders').notNull().default(true),
    /**
     * The person's IANA time zone as their browser last reported it (issue 26): the default return time
     * (end of the day) and the "on the day" reminder are in it. Null = not known yet (UTC).
     */
    timeZone: text('time_zone'),
    /** The avatar picture's random id (issue 24, docs/decisions/0037): new on every upload, null = none. */
    avatarId: text('avatar_id'),
    /**
     * Set when the person deleted their account (docs/decisions/0035): the row stays as a tombstone
     * with no name, a placeholder email and no usable password, so handovers, items and blocks keep
     * their foreign keys. Every lookup by email treats it as no account.
     */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email), uniqueIndex('users_avatar_id_key').on(t.avatarId)],
)

/** One-time tokens sent by email. Only the SHA-256 hash of a token is ever stored. */
const tokenColumns = () => ({
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
})

export const emailVerificationTokens = pgTable('email_verification_tokens', tokenColumns(), (t) => [
  uniqueIndex('email_verification_tokens_hash_key').on(t.tokenHash),
  index('email_verification_tokens_user_idx').on(t.userId),
])

export const passwordResetTokens = pgTable('password_reset_tokens', tokenColumns(), (t) => [
  uniqueIndex('password_reset_tokens_hash_key').on(t.tokenHash),
  index('password_reset_tokens_user_idx').on(t.userId),
])

export const contactMessages = pgTable('contact_messages', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  subject: text('subject').notNull(),
  message: text('message').notNull(),
  createdAt: createdAt(),
})
