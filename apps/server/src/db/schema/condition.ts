import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { handovers } from './handovers'
import { users } from './users'

const timestampTz = (name: string) => timestamp(name, { withTimezone: true })

/**
 * Condition photos (issue 28, docs/decisions/0057). Uploaded first (unattached, the uploader's for 24 h),
 * then attached to one side of a handover with the request or the answer. `sha256` is the digest of the
 * stored full picture's bytes (computed at upload, never under the ledger lock), which a confirmation's
 * v5 block commits to. The handover going (with its item) sets `handover_id` null: the sweep then removes
 * the files and the row; the block keeps the digest.
 */
export const conditionPhotos = pgTable(
  'condition_photos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    handoverId: uuid('handover_id').references(() => handovers.id, { onDelete: 'set null' }),
    /** The handover's sender (with the request) or receiver (with the answer); null until attached. */
    side: text('side', { enum: ['sender', 'receiver'] }),
    /** Its place among its side's photos, from 0; null until attached. */
    position: integer('position'),
    attachedAt: timestampTz('attached_at'),
    /** 32 random hex characters: the stored files are `<imageId>.<imageType>` and `<imageId>-small.webp`. */
    imageId: text('image_id').notNull().unique(),
    imageType: text('image_type', { enum: ['jpg', 'png', 'webp'] }).notNull(),
    sha256: text('sha256').notNull(),
    size: integer('size').notNull(),
    createdAt: timestampTz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('condition_photos_place').on(t.handoverId, t.side, t.position),
    index('condition_photos_uploader_idx').on(t.uploadedBy),
  ],
)
