import { ZLedgerReceipt } from './ledger'
import { z } from 'zod/mini'
import { LIMITS } from '../limits'
import { MESSAGES } from '../messages'
import { named, zText } from './common'
import { ZAnswerConditionInput, ZConditionInput, ZHandoverCondition } from './condition'
import { ZDueAt, ZHandoverKind } from './loans'

/** CANCELLED: the sender withdrew it, or a party left the circle (docs/decisions/0029). */
export const HANDOVER_STATUSES = ['PENDING', 'CONFIRMED', 'REJECTED', 'CANCELLED'] as const
export const ZHandoverStatus = z.enum(HANDOVER_STATUSES)
export type THandoverStatus = z.infer<typeof ZHandoverStatus>

export const ZHandoverIdParams = z.object({ id: z.uuid({ error: MESSAGES.handoverNotFound }) })

/**
 * A handover as its parties see it (spec 001 §3). `secretMessage` is the plain text only for the
 * receiver; every other caller gets null, whatever the handover holds. `block` is the ledger block a
 * confirmation appended.
 */
export const ZHandover = named(
  z.object({
    id: z.uuid(),
    itemId: z.uuid(),
    circleId: z.uuid(),
    senderId: z.uuid(),
    receiverId: z.uuid(),
    status: ZHandoverStatus,
    requesterComment: z.nullable(z.string()),
    secretMessage: z.nullable(z.string()),
    /** Whether there is a secret message, for the sender's own view ("with a secret message"). */
    hasSecretMessage: z.boolean(),
    receiverComment: z.nullable(z.string()),
    completeOwnership: z.boolean(),
    /** Issue 26: TRANSFER (as before), LOAN (until `dueAt`), RETURN (ends loan `loanId`). */
    kind: ZHandoverKind,
    dueAt: z.nullable(z.iso.datetime()),
    loanId: z.nullable(z.uuid()),
    createdAt: z.iso.datetime(),
    /** When the receiver confirmed or rejected, or when it was cancelled: the transaction date. */
    answeredAt: z.nullable(z.iso.datetime()),
    sender: z.object({ name: z.string() }),
    receiver: z.object({ name: z.string() }),
    item: z.object({ name: z.string(), thumbnailUrl: z.nullable(z.string()) }),
    /** `height`: its place in the circle's ledger ('recorded in block N', issue 28). */
    block: z.nullable(z.object({ id: z.uuid(), hash: z.string(), height: z.number().check(z.int()) })),
    /** Issue 28: the photos and notes of both sides (a rejected or cancelled request keeps the sender's). */
    condition: ZHandoverCondition,
  }),
  'Handover',
)
export type THandover = z.infer<typeof ZHandover>

export const ZHandoverResponse = z.object({
  handover: ZHandover,
  message: z.optional(z.string()),
  /** On a confirmation: the block's place in the newly signed checkpoint (issue 14). */
  receipt: z.optional(ZLedgerReceipt),
})
export const ZHandoverListResponse = z.object({ handovers: z.array(ZHandover) })

const optionalText = (max: number) =>
  z.pipe(
    z.nullish(zText({ multiline: true }).check(z.maxLength(max, MESSAGES.handoverTextMax))),
    z.transform((v) => (v ? v : null)),
  )

/** Handover request (spec 001 §3, §5): a receiver is required and must be a uuid. */
export const ZCreateHandoverRequest = z.object({
  itemId: z.uuid({ error: MESSAGES.notFound }),
  receiverId: z.uuid({ error: MESSAGES.invalidUserId }),
  requesterComment: optionalText(LIMITS.handoverCommentMax),
  secretMessage: optionalText(LIMITS.handoverCommentMax),
  completeOwnership: z._default(z.boolean(), false),
  /** Issue 26: LOAN lends the item until `dueAt` (required then, in the future); RETURN has its own route. */
  kind: z._default(z.enum(['TRANSFER', 'LOAN']), 'TRANSFER'),
  dueAt: z.pipe(
    z.nullish(ZDueAt),
    z.transform((v) => v ?? null),
  ),
  /** Issue 28: the sender's condition photos and note. */
  condition: z.optional(ZConditionInput),
})
export type TCreateHandoverRequest = z.output<typeof ZCreateHandoverRequest>
export type TCreateHandoverInput = z.input<typeof ZCreateHandoverRequest>

/** The receiver's answer. */
export const ZHandoverAnswer = z.object({
  status: z.enum(['CONFIRMED', 'REJECTED']),
  receiverComment: optionalText(LIMITS.handoverCommentMax),
  /** Issue 28: the receiver's own photos and note, or 'as described'. */
  condition: z.optional(ZAnswerConditionInput),
})
export type THandoverAnswer = z.output<typeof ZHandoverAnswer>
export type THandoverAnswerInput = z.input<typeof ZHandoverAnswer>
