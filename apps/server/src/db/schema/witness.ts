import {
  bigint,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core'
import { ledgerCheckpoints } from './handovers'
import { users } from './users'

/**
 * Issue 29 (docs/decisions/0059): members' devices as witnesses. One Ed25519 key per device of an
 * account (a device names itself by a random UUID it keeps); `name` is the key's C2SP name, given by the
 * server, `public_key` the 32 bytes in base64. A public key belongs to one device only: an Ed25519
 * cosignature does not sign its cosigner's name, so a key registered twice would let one account pass
 * off another's cosignatures as its own.
 */
export const witnessKeys = pgTable(
  'witness_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: uuid('device_id').notNull(),
    name: text('name').notNull().unique(),
    publicKey: text('public_key').notNull().unique(),
    /**
     * What the device is to its owner on /profile, from the registering request's User-Agent ('Chrome
     * on Linux'), or null (migration 0022, docs/decisions/0064).
     */
    label: text('label'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('witness_keys_user_device_unique').on(t.userId, t.deviceId)],
)

/**
 * A member device's cosignature (C2SP tlog-cosignature, Ed25519) on a checkpoint the server signed, as
 * its signature line; one per key and checkpoint (the first one given). It goes with its key, and with
 * the circle's ledger.
 */
export const ledgerCosignatures = pgTable(
  'ledger_cosignatures',
  {
    circleId: uuid('circle_id').notNull(),
    size: integer('size').notNull(),
    witnessKeyId: uuid('witness_key_id')
      .notNull()
      .references(() => witnessKeys.id, { onDelete: 'cascade' }),
    /** The cosigner's time, POSIX seconds. */
    signedAt: bigint('signed_at', { mode: 'number' }).notNull(),
    line: text('line').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.circleId, t.size, t.witnessKeyId] }),
    foreignKey({
      columns: [t.circleId, t.size],
      foreignColumns: [ledgerCheckpoints.circleId, ledgerCheckpoints.size],
    }).onDelete('cascade'),
    index('ledger_cosignatures_key_idx').on(t.witnessKeyId),
  ],
)

/**
 * Outside witnesses (C2SP tlog-witness, LEDGER_WITNESSES): per circle and witness (its key name), the
 * tree size the witness last cosigned as far as the server knows (the `old` of its next add-checkpoint),
 * and when the worker may try next (a lease while a request is out, then backoff after a failure).
 */
export const ledgerWitnessState = pgTable(
  'ledger_witness_state',
  {
    circleId: uuid('circle_id').notNull(),
    witness: text('witness').notNull(),
    size: integer('size').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.circleId, t.witness] }),
    index('ledger_witness_state_due_idx').on(t.nextAttemptAt),
  ],
)

/** An outside witness's cosignature on a checkpoint the server signed, as its signature line. */
export const ledgerWitnessCosignatures = pgTable(
  'ledger_witness_cosignatures',
  {
    circleId: uuid('circle_id').notNull(),
    size: integer('size').notNull(),
    witness: text('witness').notNull(),
    line: text('line').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.circleId, t.size, t.witness] }),
    foreignKey({
      columns: [t.circleId, t.size],
      foreignColumns: [ledgerCheckpoints.circleId, ledgerCheckpoints.size],
    }).onDelete('cascade'),
  ],
)
