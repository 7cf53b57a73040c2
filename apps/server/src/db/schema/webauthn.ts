import {
  bigint,
  boolean,
  customType,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core'
import { users } from './users'

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' })

/** A passkey (spec 001 §3 "Passkey credential"): the public key and what the authenticator said of itself. */
export const webauthnCredentials = pgTable(
  'webauthn_credentials',
  {
    /** The credential id, base64url, as the browser reports it. */
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    publicKey: bytea('public_key').notNull(),
    /** The signature counter; an answer with a lower one than stored is refused (a cloned key). */
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    deviceType: text('device_type', { enum: ['singleDevice', 'multiDevice'] }).notNull(),
    backedUp: boolean('backed_up').notNull(),
    /** What the person calls it (1–60 characters); defaults from the AAGUID or the browser (ADR 0036). */
    name: text('name').notNull().default('Passkey'),
    /** The authenticator's model id from registration; all zeros when the browser withheld it. */
    aaguid: text('aaguid'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('webauthn_credentials_user_idx').on(t.userId)],
)

/**
 * A challenge the server handed out, single use: verifying deletes it. Registration challenges belong
 * to the signed-in user; sign-in challenges to the account of the email asked for, if one was given.
 */
export const webauthnChallenges = pgTable('webauthn_challenges', {
  challenge: text('challenge').primaryKey(),
  purpose: text('purpose', { enum: ['registration', 'authentication'] }).notNull(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
})
