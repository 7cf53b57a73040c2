import type { BlockEvidence } from '@circles/ledger'
import { sql } from 'drizzle-orm'
import {
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { circles } from './circles'
import { items } from './items'
import { users } from './users'

const timestampTz = (name: string) => timestamp(name, { withTimezone: true })
const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' })

/**
 * A request to hand an item to another member (spec 001 §4): PENDING until the receiver confirms or
 * rejects it; the sender may cancel a PENDING one, which stays as CANCELLED (so does a request withdrawn
 * because a party left the circle; docs/decisions/0029). The column has no check constraint, so the
 * added status needs no migration. At most one PENDING per item. The salts
 * make the ledger's commitments to the three texts (packages/ledger `commitment`).
 */
export const handovers = pgTable(
  'handovers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    itemId: uuid('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    circleId: uuid('circle_id')
      .notNull()
      .references(() => circles.id, { onDelete: 'cascade' }),
    senderId: uuid('sender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    receiverId: uuid('receiver_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['PENDING', 'CONFIRMED', 'REJECTED', 'CANCELLED'] })
      .notNull()
      .default('PENDING'),
    completeOwnership: boolean('complete_ownership').notNull().default(false),
    /**
     * Issue 26 (docs/decisions/0047): TRANSFER moves the item (complete or partial, as before); LOAN lends
     * it until `due_at` (the sender stays its owner); RETURN brings a lent item back to its lender
     * (`loan_id`). For a RETURN the one who confirms is the receiver: the lender when the borrower starts
     * it, the borrower when the lender records a return in person; the item always goes to the lender.
     */
    kind: text('kind', { enum: ['TRANSFER', 'LOAN', 'RETURN'] })
      .notNull()
      .default('TRANSFER'),
    dueAt: timestampTz('due_at'),
    loanId: uuid('loan_id'),
    requesterComment: text('requester_comment'),
    secretMessage: text('secret_message'),
    receiverComment: text('receiver_comment'),
    requesterCommentSalt: text('requester_comment_salt').notNull(),
    secretMessageSalt: text('secret_message_salt').notNull(),
    receiverCommentSalt: text('receiver_comment_salt').notNull(),
    /**
     * Issue 28 (docs/decisions/0057): each side's condition note and the salt of its commitment in the
     * block; `receiver_as_described`: the receiver accepted the item as the sender described it.
     */
    senderNote: text('sender_note'),
    senderNoteSalt: text('sender_note_salt'),
    receiverNote: text('receiver_note'),
    receiverNoteSalt: text('receiver_note_salt'),
    receiverAsDescribed: boolean('receiver_as_described').notNull().default(false),
    createdAt: timestampTz('created_at').notNull().defaultNow(),
    answeredAt: timestampTz('answered_at'),
  },
  (t) => [
    uniqueIndex('handovers_one_pending_per_item')
      .on(t.itemId)
      .where(sql`${t.status} = 'PENDING'`),
    index('handovers_item_idx').on(t.itemId),
    index('handovers_sender_idx').on(t.senderId),
    index('handovers_receiver_idx').on(t.receiverId),
  ],
)

/**
 * The circle ledger: append-only (a trigger refuses UPDATE and DELETE), one chain per circle. Every
 * hashed field is a column, a snapshot of what the block shows; no foreign keys, so deleting an item,
 * an account or a handover never alters a block. `time` is kept as the exact string that was hashed.
 */
export const blocks = pgTable(
  'blocks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    circleId: uuid('circle_id').notNull(),
    height: integer('height').notNull(),
    hash: text('hash').notNull(),
    prevHash: text('prev_hash').notNull(),
    version: integer('version').notNull(),
    /** v4 (issue 26) adds LOAN, RETURN and LOAN_CHANGE; the column is plain text, no migration. */
    kind: text('kind', { enum: ['HANDOVER', 'AUTO_TRANSFER', 'LOAN', 'RETURN', 'LOAN_CHANGE'] }).notNull(),
    first: boolean('first').notNull(),
    time: text('time').notNull(),
    circleName: text('circle_name').notNull(),
    handoverId: uuid('handover_id'),
    itemId: uuid('item_id').notNull(),
    itemName: text('item_name').notNull(),
    fromId: uuid('from_id').notNull(),
    /**
     * v1/v2: the hashed name in clear; v3: the name kept beside the block. Null once erased (v3) or
     * redacted (v1/v2) because the person deleted their account (docs/decisions/0034).
     */
    fromName: text('from_name'),
    /** v3: the salt of the name's commitment, null once erased; always null on v1/v2 rows. */
    fromNameSalt: text('from_name_salt'),
    /** v3: what the hash covers in place of the name; null on v1/v2 rows. */
    fromNameCommitment: text('from_name_commitment'),
    toId: uuid('to_id').notNull(),
    toName: text('to_name'),
    toNameSalt: text('to_name_salt'),
    toNameCommitment: text('to_name_commitment'),
    ownership: text('ownership', { enum: ['COMPLETE', 'PARTIAL'] }).notNull(),
    requesterCommentCommitment: text('requester_comment_commitment'),
    receiverCommentCommitment: text('receiver_comment_commitment'),
    secretMessageCommitment: text('secret_message_commitment'),
    /** Encoding v2 (docs/decisions/0027): why an AUTO_TRANSFER happened; null on v1 rows and handovers. */
    reason: text('reason', { enum: ['LEFT', 'REMOVED'] }),
    /** Encoding v4: the loan the block is about (null otherwise) and its return date, the exact hashed string. */
    loanId: uuid('loan_id'),
    dueAt: text('due_at'),
    /** Encoding v5 (issue 28): the condition evidence exactly as hashed (digests and commitments); null otherwise. */
    evidence: jsonb('evidence').$type<BlockEvidence>(),
  },
  (t) => [
    uniqueIndex('blocks_circle_height').on(t.circleId, t.height),
    uniqueIndex('blocks_circle_prev_hash').on(t.circleId, t.prevHash),
    index('blocks_item_idx').on(t.itemId),
    index('blocks_handover_idx').on(t.handoverId),
  ],
)

/**
 * One row per circle that has a ledger: the next height and the last hash. Every append locks it
 * (SELECT ... FOR UPDATE) in the transaction that appends, so a circle's blocks come one at a time.
 */
export const ledgerHeads = pgTable('ledger_heads', {
  circleId: uuid('circle_id').primaryKey(),
  size: integer('size').notNull().default(0),
  headHash: text('head_hash').notNull().default('0'.repeat(64)),
  /** The Merkle tree's frontier (hex, largest subtree first): what the next append needs (issue 14). */
  frontier: jsonb('frontier').$type<string[]>().notNull().default([]),
  /** The newest signed checkpoint (C2SP signed note); null until the first append that signs. */
  checkpoint: text('checkpoint'),
  /**
   * Issue 29: how many leaves `ledger_tiles` holds. Equal to `size` once the tiles are written; a log
   * appended to before tiles existed gets them built once, under the lock, then kept by every append.
   */
  tiledSize: integer('tiled_size').notNull().default(0),
})

/**
 * Issue 29 (C2SP tlog-tiles): each circle's Merkle tree as tiles of up to 256 hashes. Level 0 holds the
 * leaf hashes, level L the hashes of full tiles of level L-1. One row per tile, its hashes concatenated;
 * a tile grows until full (a partial tile of width W is always the first W hashes of the stored one).
 * Written by the append, in its transaction.
 */
export const ledgerTiles = pgTable(
  'ledger_tiles',
  {
    circleId: uuid('circle_id').notNull(),
    level: integer('level').notNull(),
    idx: integer('idx').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.circleId, t.level, t.idx] })],
)

/** Every signed checkpoint of a circle's log, append-only: what a member may have seen before. */
export const ledgerCheckpoints = pgTable(
  'ledger_checkpoints',
  {
    circleId: uuid('circle_id').notNull(),
    size: integer('size').notNull(),
    note: text('note').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.circleId, t.size] })],
)
