import { sql } from 'drizzle-orm'
import { customType, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { circles } from './circles'
import { users } from './users'

const timestampTz = (name: string) => timestamp(name, { withTimezone: true })
const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' })

/**
 * Things a circle shares. `ownerId` holds the item with `ownership` COMPLETE (may delete it, hand it
 * over fully) or PARTIAL (may use it). An owner who is no longer a member of the circle keeps a
 * COMPLETE item, isolated from the circle. `imageId` names the stored picture (docs/decisions/0015).
 */
export const items = pgTable(
  'items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    circleId: uuid('circle_id')
      .notNull()
      .references(() => circles.id, { onDelete: 'cascade' }),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ownership: text('ownership', { enum: ['COMPLETE', 'PARTIAL'] })
      .notNull()
      .default('COMPLETE'),
    name: text('name').notNull(),
    /**
     * The label's short code (issue 27, docs/decisions/0052): 8 characters of Crockford base32, unique,
     * given by the database function `item_code()` of migration 0017 on every insert.
     */
    code: text('code')
      .notNull()
      .default(sql`item_code()`),
    description: text('description'),
    /** The stored picture: `<imageId>.<imageType>` and `<imageId>-small.webp`. */
    imageId: text('image_id'),
    imageType: text('image_type', { enum: ['jpg', 'png', 'webp'] }),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestampTz('created_at').notNull().defaultNow(),
    updatedAt: timestampTz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('items_circle_idx').on(t.circleId),
    index('items_owner_idx').on(t.ownerId),
    index('items_image_idx').on(t.imageId),
    uniqueIndex('items_code_idx').on(t.code),
  ],
)

/**
 * Pictures, when they live in the database (with DATABASE_URL: every instance reads what another
 * stored). The embedded mode keeps them as files under DATA_DIR/uploads instead.
 */
export const storedFiles = pgTable('stored_files', {
  name: text('name').primaryKey(),
  contentType: text('content_type').notNull(),
  size: integer('size').notNull(),
  bytes: bytea('bytes').notNull(),
  createdAt: timestampTz('created_at').notNull().defaultNow(),
})
