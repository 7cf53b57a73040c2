import { z } from 'zod'
import { LIMITS } from '../limits'
import { MESSAGES } from '../messages'
import { isPlainText, requiredString, zText } from './common'
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
  code: z
    .string({ error: MESSAGES.notFound })
    .max(40, { error: MESSAGES.notFound })
    .transform((v, ctx) => {
      const code = normalizeItemCode(v)
      if (!code) {
        ctx.addIssue({ code: 'custom', message: MESSAGES.notFound })
        return z.NEVER
      }
      return code
    }),
})

export const ZItemIdParams = z.object({ id: z.uuid({ error: MESSAGES.notFound }) })
export const ZItemImageParams = z.object({ itemId: z.uuid({ error: MESSAGES.notFound }) })
/** A stored picture: 32 hex characters, `-small` for the card rendition, and its format. */
export const IMAGE_FILE_PATTERN = /^[0-9a-f]{32}(-small)?\.(jpg|png|webp)$/
export const ZImageFileParams = z.object({
  file: z.string().regex(IMAGE_FILE_PATTERN, { error: MESSAGES.notFound }),
})

/** The path a picture is served from; the client fetches it with its bearer token. */
export const IMAGE_PATH_PREFIX = '/api/items/image/'

export const ZItem = z
  .object({
    id: z.uuid(),
    name: z.string(),
    /** Issue 27: the label's short code (`ITEM_CODE_PATTERN`). */
    code: z.string(),
    description: z.string().nullable(),
    /** The full picture (longer side at most 1920 px), or null. */
    imageUrl: z.string().nullable(),
    /** The small rendition (longer side about 480 px, WebP) for card grids, or null. */
    thumbnailUrl: z.string().nullable(),
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
  })
  .meta({ id: 'Item' })
export type TItem = z.infer<typeof ZItem>

export const ZItemResponse = z.object({ item: ZItem, message: z.string().optional() })
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
  once(message)
    .regex(/^\d{1,6}$/, { error: message })
    .transform(Number)
    .pipe(z.number().int().min(min, { error: message }).max(max, { error: message }))

export const ZItemSearchQuery = z.object({
  /** Words in the name or the description, case-insensitive; empty means no text filter. */
  q: once(MESSAGES.itemSearchBadText)
    .trim()
    .refine((v) => isPlainText(v), { error: MESSAGES.itemSearchBadText })
    .refine((v) => v.length <= ITEM_SEARCH_TEXT_MAX, { error: MESSAGES.itemSearchTextMax })
    .transform((v) => v || undefined)
    .optional(),
  circle: z.uuid({ error: MESSAGES.itemSearchBadCircle }).optional(),
  /** `me`: what the caller holds; a user id: what that member holds. */
  holder: once(MESSAGES.itemSearchBadHolder)
    .refine((v) => v === 'me' || z.uuid().safeParse(v).success, { error: MESSAGES.itemSearchBadHolder })
    .optional(),
  state: z.enum(ITEM_STATES, { error: MESSAGES.itemSearchBadState }).optional(),
  sort: z.enum(ITEM_SORTS, { error: MESSAGES.itemSearchBadSort }).optional(),
  /** At most this many items from `offset` on; without it, every match (the lists' old answer). */
  limit: wholeNumber(1, ITEM_SEARCH_LIMIT_MAX, MESSAGES.itemSearchBadLimit).optional(),
  offset: wholeNumber(0, ITEM_SEARCH_OFFSET_MAX, MESSAGES.itemSearchBadOffset).optional(),
})
export type TItemSearchQuery = z.output<typeof ZItemSearchQuery>
export type TItemSearchInput = z.input<typeof ZItemSearchQuery>

/** The lists' answer with the number of every match (`items` may be one page of them). */
export const ZItemSearchResponse = z.object({ items: z.array(ZItem), total: z.number().int() })
export type TItemSearchResponse = z.infer<typeof ZItemSearchResponse>

export const ZOwnershipStatusResponse = z.object({ hasFullOwnership: z.boolean() })
export const ZUploadResponse = z.object({ imageUrl: z.string(), thumbnailUrl: z.string() })
export type TUploadResponse = z.infer<typeof ZUploadResponse>

const itemFields = {
  name: zText().min(1, MESSAGES.itemNameRequired).max(LIMITS.itemNameMax, MESSAGES.itemNameMax),
  description: zText({ multiline: true })
    .max(LIMITS.itemDescriptionMax, MESSAGES.itemDescriptionMax)
    .nullish()
    .transform((v) => (v ? v : null)),
  /** Only a picture uploaded for this item, or null to remove it; absent leaves it as it is. */
  imageUrl: zText({ trim: false }).max(300).nullish(),
}

/** The first stage of every item form and call: what must be there, before each field's own rule. */
const itemInput = {
  name: requiredString(MESSAGES.itemNameRequired),
  description: z.string().nullish(),
  imageUrl: z.string().nullish(),
}

/** Item form (spec 001 §3): name required, description and picture optional. */
export const ZItemForm = z
  .object({ name: itemInput.name, description: itemInput.description })
  .pipe(z.object({ name: itemFields.name, description: itemFields.description }))
export type TItemForm = z.input<typeof ZItemForm>

export const ZCreateItemRequest = z
  .object({ ...itemInput, circleId: z.uuid({ error: MESSAGES.notFound }) })
  .pipe(z.object({ ...itemFields, circleId: z.uuid() }))
export type TCreateItemRequest = z.output<typeof ZCreateItemRequest>

export const ZUpdateItemRequest = z.object(itemInput).pipe(z.object(itemFields))
export type TUpdateItemRequest = z.output<typeof ZUpdateItemRequest>
