import { z } from 'zod'
import { LIMITS } from '../limits'
import { MESSAGES } from '../messages'
import { requiredString, zText } from './common'

/** Complete ownership lets the holder delete and hand over fully; partial lets them use it (spec 001 §4). */
export const OWNERSHIP_KINDS = ['COMPLETE', 'PARTIAL'] as const
export const ZOwnershipKind = z.enum(OWNERSHIP_KINDS)
export type TOwnershipKind = z.infer<typeof ZOwnershipKind>

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
  })
  .meta({ id: 'Item' })
export type TItem = z.infer<typeof ZItem>

export const ZItemResponse = z.object({ item: ZItem, message: z.string().optional() })
export const ZItemListResponse = z.object({ items: z.array(ZItem) })
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
