import { z } from 'zod/mini'
import { LIMITS } from '../limits'
import { MESSAGES } from '../messages'
import { named, zText } from './common'

/**
 * Condition evidence (issue 28, docs/decisions/0057): photos and a note at each end of a handover, a
 * loan or a return. A photo is uploaded first (POST /api/handovers/photos, one picture, the item
 * picture's pipeline: JPEG, PNG or WebP up to 5 MB, re-encoded without EXIF or GPS), then attached by
 * its id to the request or to the answer. The block appended on the confirmation commits to the SHA-256
 * of each photo's stored bytes (what `url` serves) and to a salted commitment of each note.
 */
export const CONDITION_PHOTO_PATH_PREFIX = '/api/handovers/photos/'

/** One condition photo: `url` serves exactly the bytes whose SHA-256 is `sha256`; `thumbnailUrl` a small rendition. */
export const ZConditionPhoto = named(
  z.object({
    id: z.uuid(),
    url: z.string(),
    thumbnailUrl: z.string(),
    sha256: z.string(),
  }),
  'ConditionPhoto',
)
export type TConditionPhoto = z.infer<typeof ZConditionPhoto>

/** What one side recorded: its note (null without one) and its photos, in the order they were added. */
export const ZConditionSide = z.object({
  note: z.nullable(z.string()),
  photos: z.array(ZConditionPhoto),
})
export type TConditionSide = z.infer<typeof ZConditionSide>

/**
 * A handover's condition evidence: the sender's with the request, the receiver's with the answer, and
 * whether the receiver accepted the item 'as described' (then their side is empty).
 */
export const ZHandoverCondition = named(
  z.object({ sender: ZConditionSide, receiver: ZConditionSide, asDescribed: z.boolean() }),
  'HandoverCondition',
)
export type THandoverCondition = z.infer<typeof ZHandoverCondition>

const conditionFields = {
  /** Ids of photos this person uploaded and has not attached elsewhere, at most 4, in order. */
  photoIds: z._default(
    z
      .array(z.uuid({ error: MESSAGES.conditionPhotoNotFound }))
      .check(z.maxLength(LIMITS.conditionPhotosMax, MESSAGES.conditionTooManyPhotos)),
    [],
  ),
  note: z.pipe(
    z.nullish(
      zText({ multiline: true }).check(z.maxLength(LIMITS.conditionNoteMax, MESSAGES.conditionNoteMax)),
    ),
    z.transform((v) => (v ? v : null)),
  ),
}
/** The sender's evidence with a handover request or a return. */
export const ZConditionInput = z.object(conditionFields)
export type TConditionInput = z.output<typeof ZConditionInput>
/** The receiver's evidence with the answer: their own photos and note, or 'as described'. */
export const ZAnswerConditionInput = z.object({
  ...conditionFields,
  asDescribed: z._default(z.boolean(), false),
})
export type TAnswerConditionInput = z.output<typeof ZAnswerConditionInput>

/** GET /api/handovers/photos/:file: `<32 hex>.<jpg|png|webp>` or `<32 hex>-small.webp`. */
export const ZConditionPhotoFileParams = z.object({
  file: z.string().check(z.regex(/^[0-9a-f]{32}(-small\.webp|\.(jpg|png|webp))$/, MESSAGES.notFound)),
})

/** DELETE /api/handovers/photos/:id: a photo not attached yet, by the one who uploaded it. */
export const ZConditionPhotoIdParams = z.object({ id: z.uuid({ error: MESSAGES.conditionPhotoNotFound }) })

/**
 * The evidence kept beside a v5 block: each side's note with the salt that opens the block's commitment
 * (both null without a note), and each committed photo with where it is served (null once the item and
 * its pictures are deleted: the digest stays in the block).
 */
const ZKeptConditionSide = z.object({
  note: z.nullable(z.string()),
  noteSalt: z.nullable(z.string()),
  photos: z.array(
    z.object({ sha256: z.string(), url: z.nullable(z.string()), thumbnailUrl: z.nullable(z.string()) }),
  ),
})
export const ZBlockEvidence = z.object({ from: ZKeptConditionSide, to: ZKeptConditionSide })
export type TBlockEvidence = z.infer<typeof ZBlockEvidence>

/** A photo whose stored bytes are not the ones its block recorded: reported by verify. */
export const ZFailingPhoto = z.object({
  blockId: z.uuid(),
  index: z.number().check(z.int()),
  side: z.enum(['from', 'to']),
  /** 1-based, as shown. */
  photo: z.number().check(z.int()),
  expected: z.string(),
  /** The SHA-256 of what is stored now; null when the file is missing. */
  actual: z.nullable(z.string()),
})
export type TFailingPhoto = z.infer<typeof ZFailingPhoto>
