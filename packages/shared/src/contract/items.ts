import { z } from 'zod/mini'
import { LIMITS } from '../limits'
import { MESSAGES } from '../messages'
import { named, isPlainText, requiredString, zText } from './common'
import { ZItemLending } from './loans'

/** Complete ownership lets the holder delete and hand over fully; partial lets them use it (spec 001 §4). */
export const OWNERSHIP_KINDS = ['COMPLETE', 'PARTIAL'] as const
export const ZOwnershipKind = z.enum(OWNERSHIP_KINDS)
export type TOwnershipKind = z.infer<typeof ZOwnershipKind>

/**
 * The label's short code (issue 27, docs/decisions/0052): 8 characters of an alphabet without 0, O, 1,
 * I, L and U. The QR code of a label holds `{PUBLIC_URL}/i/<code>`.
 */
export const ITEM_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ'
export const ITEM_CODE_LENGTH = 8
export const ITEM_CODE_PATTERN = /^[2-9A-HJKMNP-TV-Z]{8}$/
/** The path a label's QR code opens (in the web app), before the code. */
export const ITEM_CODE_PATH = '/i/'

/** A code as a person may type it: lower case, spaces and hyphens allowed; undefined if it is none. */
export function normalizeItemCode(input: string): string | undefined {
  const code = input.replace(/[\s-]/g, '').toUpperCase()
  return ITEM_CODE_PATTERN.test(code) ? code : undefined
}

/** GET /api/items/by-code/:code: anything that is no code gets the same 404 as an unknown one. */
export const ZItemCodeParams = z.object({
  code: z.pipe(
    z.string({ error: MESSAGES.notFound }).check(z.maxLength(40, { error: MESSAGES.notFound })),
    z.transform((v: string, ctx) => {
      const code = normalizeItemCode(v)
      if (!code) {
        // zod/mini's transform has no `ctx.addIssue`: the issue is pushed as it would have added it.
        ctx.issues.push({ code: 'custom', message: MESSAGES.notFound, input: v })
        return z.NEVER
      }
      return code
    }),
  ),
})

export const ZItemIdParams = z.object({ id: z.uuid({ error: MESSAGES.notFound }) })
export const ZItemImageParams = z.object({ itemId: z.uuid({ error: MESSAGES.notFound }) })
/** A stored picture: 32 hex characters, `-small` for the card rendition, and its format. */
export const IMAGE_FILE_PATTERN = /^[0-9a-f]{32}(-small)?\.(jpg|png|webp)$/
export const ZImageFileParams = z.object({
  file: z.string().check(z.regex(IMAGE_FILE_PATTERN, { error: MESSAGES.notFound })),
})

/** The path a picture is served from; the client fetches it with its bearer token. */
export const IMAGE_PATH_PREFIX = '/api/items/image/'

export const ZItem = named(
  z.object({
    id: z.uuid(),
    name: z.string(),
    /** Issue 27: the label's short code (`ITEM_CODE_PATTERN`). */
    code: z.string(),
    description: z.nullable(z.string()),
    /** The full picture (longer side at most 1920 px), or null. */
    imageUrl: z.nullable(z.string()),
    /** The small rendition (longer side about 480 px, WebP) for card grids, or null. */
    thumbnailUrl: z.nullable(z.string()),
    circleId: z.uuid(),
    ownerId: z.uuid(),
    ownership: ZOwnershipKind,
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    owner: z.object({ name: z.string() }),
    circle: z.object({ name: z.string(), adminId: z.uuid() }),
    /** The holder is no longer a member of the circle: the item is isolated from it (spec 001 §4). */
    ownerLeftCircle: z.boolean(),
    hasPendingHandovers: z.boolean(),
    /** Any handover CONFIRMED: name, description and picture can no longer change. */
    locked: z.boolean(),
    /** Issue 26: the active loan and the waiting list's length. */
    lending: ZItemLending,
  }),
  'Item',
)
export type TItem = z.infer<typeof ZItem>

export const ZItemResponse = z.object({ item: ZItem, message: z.optional(z.string()) })
export const ZItemListResponse = z.object({ items: z.array(ZItem) })
/**
 * Item search (issue 23, docs/decisions/0031): what GET /items and GET /items/circle/:id accept in the
 * query string. Every parameter is optional; without any, both answer as before (every item, newest
 * first). The web app keeps the same names in its own URL (/items?q=…&state=…), so a link keeps them.
 */
export const ITEM_STATES = ['available', 'pending', 'on-loan', 'handed-over'] as const
export type TItemState = (typeof ITEM_STATES)[number]
export const ITEM_SORTS = ['newest', 'name', 'recent-handover'] as const
export type TItemSort = (typeof ITEM_SORTS)[number]
export const ITEM_SEARCH_TEXT_MAX = 100
export const ITEM_SEARCH_LIMIT_MAX = 100
export const ITEM_SEARCH_OFFSET_MAX = 100_000

/** A query value given once: `?q=a&q=b` arrives as an array and is refused with the field's message. */
const once = (message: string) => z.string({ error: message })
const wholeNumber = (min: number, max: number, message: string) =>
  z.pipe(
    z.pipe(once(message).check(z.regex(/^\d{1,6}$/, { error: message })), z.transform(Number)),
    z.number().check(z.int(), z.gte(min, { error: message }), z.lte(max, { error: message })),
  )

export const ZItemSearchQuery = z.object({
  /** Words in the name or the description, case-insensitive; empty means no text filter. */
  q: z.optional(
    z.pipe(
      once(MESSAGES.itemSearchBadText).check(
        z.trim(),
        z.refine((v) => isPlainText(v), { error: MESSAGES.itemSearchBadText }),
        z.refine((v) => v.length <= ITEM_SEARCH_TEXT_MAX, { error: MESSAGES.itemSearchTextMax }),
      ),
      z.transform((v) => v || undefined),
    ),
  ),
  circle: z.optional(z.uuid({ error: MESSAGES.itemSearchBadCircle })),
  /** `me`: what the caller holds; a user id: what that member holds. */
  holder: z.optional(
    once(MESSAGES.itemSearchBadHolder).check(
      z.refine((v) => v === 'me' || z.uuid().safeParse(v).success, { error: MESSAGES.itemSearchBadHolder }),
    ),
  ),
  state: z.optional(z.enum(ITEM_STATES, { error: MESSAGES.itemSearchBadState })),
  sort: z.optional(z.enum(ITEM_SORTS, { error: MESSAGES.itemSearchBadSort })),
  /** At most this many items from `offset` on; without it, every match (the lists' old answer). */
  limit: z.optional(wholeNumber(1, ITEM_SEARCH_LIMIT_MAX, MESSAGES.itemSearchBadLimit)),
  offset: z.optional(wholeNumber(0, ITEM_SEARCH_OFFSET_MAX, MESSAGES.itemSearchBadOffset)),
})
export type TItemSearchQuery = z.output<typeof ZItemSearchQuery>
export type TItemSearchInput = z.input<typeof ZItemSearchQuery>

/** The lists' answer with the number of every match (`items` may be one page of them). */
export const ZItemSearchResponse = z.object({ items: z.array(ZItem), total: z.number().check(z.int()) })
export type TItemSearchResponse = z.infer<typeof ZItemSearchResponse>

export const ZOwnershipStatusResponse = z.object({ hasFullOwnership: z.boolean() })
export const ZUploadResponse = z.object({ imageUrl: z.string(), thumbnailUrl: z.string() })
export type TUploadResponse = z.infer<typeof ZUploadResponse>

const itemFields = {
  name: zText().check(
    z.minLength(1, MESSAGES.itemNameRequired),
    z.maxLength(LIMITS.itemNameMax, MESSAGES.itemNameMax),
  ),
  description: z.pipe(
    z.nullish(
      zText({ multiline: true }).check(z.maxLength(LIMITS.itemDescriptionMax, MESSAGES.itemDescriptionMax)),
    ),
    z.transform((v) => (v ? v : null)),
  ),
  /** Only a picture uploaded for this item, or null to remove it; absent leaves it as it is. */
  imageUrl: z.nullish(zText({ trim: false }).check(z.maxLength(300))),
}

/** The first stage of every item form and call: what must be there, before each field's own rule. */
const itemInput = {
  name: requiredString(MESSAGES.itemNameRequired),
  description: z.nullish(z.string()),
  imageUrl: z.nullish(z.string()),
}

/** Item form (spec 001 §3): name required, description and picture optional. */
export const ZItemForm = z.pipe(
  z.object({ name: itemInput.name, description: itemInput.description }),
  z.object({ name: itemFields.name, description: itemFields.description }),
)
export type TItemForm = z.input<typeof ZItemForm>

export const ZCreateItemRequest = z.pipe(
  z.object({ ...itemInput, circleId: z.uuid({ error: MESSAGES.notFound }) }),
  z.object({ ...itemFields, circleId: z.uuid() }),
)
export type TCreateItemRequest = z.output<typeof ZCreateItemRequest>

export const ZUpdateItemRequest = z.pipe(z.object(itemInput), z.object(itemFields))
export type TUpdateItemRequest = z.output<typeof ZUpdateItemRequest>
