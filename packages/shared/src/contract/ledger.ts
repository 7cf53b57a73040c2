import { z } from 'zod/mini'
import { named } from './common'
import { MESSAGES } from '../messages'
import { ZBlockEvidence, ZFailingPhoto } from './condition'

const ZParty = z.object({ id: z.string(), name: z.string() })
/** A person in a v1/v2 block: null name once redacted (issue 24; the block's `redacted` says so). */
const ZNamedParty = z.object({ id: z.string(), name: z.nullable(z.string()) })
/** A person in a v3 block: the name only as a salted commitment; the name itself is in `names`. */
const ZCommittedParty = z.object({ id: z.string(), nameCommitment: z.string() })

const commonFields = {
  kind: z.enum(['HANDOVER', 'AUTO_TRANSFER']),
  circle: ZParty,
  height: z.number().check(z.int(), z.nonnegative()),
  prevHash: z.string(),
  first: z.boolean(),
  time: z.string(),
  handoverId: z.nullable(z.string()),
  item: ZParty,
  ownership: z.enum(['COMPLETE', 'PARTIAL']),
  commitments: z.object({
    requesterComment: z.nullable(z.string()),
    receiverComment: z.nullable(z.string()),
    secretMessage: z.nullable(z.string()),
  }),
}
const blockFields = { ...commonFields, from: ZNamedParty, to: ZNamedParty }
const ZReason = z.nullable(z.enum(['LEFT', 'REMOVED']))
const ZEvidenceSide = z.object({ note: z.nullable(z.string()), photos: z.array(z.string()) })

/**
 * Exactly what a block's hash covers (packages/ledger `BlockContent`): the client recomputes the hash
 * from this object, so the server's word is not needed to check a block. Encoding v1 (every block
 * written before issue 23) and v2, which adds `reason`: why an automatic transfer happened (LEFT: the
 * holder left the circle; REMOVED: the admin removed them), null for a handover. v3 (issue 24, every
 * block written since): v2's fields with each person as `{ id, nameCommitment }`; the names are in the
 * block's `names`. A v1/v2 block whose names were redacted carries them as null (see `redacted`).
 */
export const ZBlockContent = named(
  z.discriminatedUnion('v', [
    z.object({ v: z.literal(1), ...blockFields }),
    z.object({ v: z.literal(2), ...blockFields, reason: ZReason }),
    z.object({
      v: z.literal(3),
      ...commonFields,
      reason: ZReason,
      from: ZCommittedParty,
      to: ZCommittedParty,
    }),
    // v4 (issue 26, docs/decisions/0047): v3's fields, the loan kinds, and the loan with its return date
    // (null on a RETURN); `loan` is null on HANDOVER and AUTO_TRANSFER.
    z.object({
      v: z.literal(4),
      ...commonFields,
      kind: z.enum(['HANDOVER', 'AUTO_TRANSFER', 'LOAN', 'RETURN', 'LOAN_CHANGE']),
      reason: ZReason,
      loan: z.nullable(z.object({ id: z.string(), dueAt: z.nullable(z.string()) })),
      from: ZCommittedParty,
      to: ZCommittedParty,
    }),
    // v5 (issue 28, docs/decisions/0057): v4's fields and the condition evidence each side recorded:
    // photo SHA-256s and a note commitment per side, and the receiver's 'as described'.
    z.object({
      v: z.literal(5),
      ...commonFields,
      kind: z.enum(['HANDOVER', 'AUTO_TRANSFER', 'LOAN', 'RETURN', 'LOAN_CHANGE']),
      reason: ZReason,
      loan: z.nullable(z.object({ id: z.string(), dueAt: z.nullable(z.string()) })),
      from: ZCommittedParty,
      to: ZCommittedParty,
      evidence: z.nullable(
        z.object({
          asDescribed: z.boolean(),
          from: ZEvidenceSide,
          to: ZEvidenceSide,
        }),
      ),
    }),
  ]),
  'BlockContent',
)
export type TBlockContent = z.infer<typeof ZBlockContent>

/** A name kept beside a block, with the salt of its commitment (v3); both null once erased. */
const ZKeptName = z.object({ name: z.nullable(z.string()), salt: z.nullable(z.string()) })
export type TKeptName = z.infer<typeof ZKeptName>

/**
 * A ledger block (spec 001 §3): its id and recorded hash, the hashed content, and what the block
 * itself keeps out of the chain: the item's current picture (null once the item is gone) and the
 * handover's comments in clear (the secret message for its receiver only, else null).
 *
 * Issue 24 (docs/decisions/0034): `names` are the two people's names as shown, for every version (v3:
 * with the salt that opens the content's commitment; v1/v2: the content's names, salt null); null where
 * the person deleted their account. `redacted` names the people of a v1/v2 block whose name was removed
 * from its stored content: its hash cannot be recomputed and is checked by its links and the signed log.
 */
export const ZBlock = named(
  z.object({
    id: z.uuid(),
    hash: z.string(),
    content: ZBlockContent,
    names: z.object({ from: ZKeptName, to: ZKeptName }),
    redacted: z.array(z.enum(['from', 'to'])),
    item: z.nullable(z.object({ imageUrl: z.nullable(z.string()), thumbnailUrl: z.nullable(z.string()) })),
    comments: z.object({
      requesterComment: z.nullable(z.string()),
      receiverComment: z.nullable(z.string()),
      secretMessage: z.nullable(z.string()),
    }),
    /** Issue 28: a v5 block's notes with their salts and its photos with where they are served; else null. */
    evidence: z.nullable(ZBlockEvidence),
  }),
  'Block',
)
export type TBlock = z.infer<typeof ZBlock>

/**
 * GET /blockchain, /blockchain/circle/:circleId, /blockchain/item/:itemId: newest first. A circle's and
 * an item's list also carry `checkpoint` (docs/decisions/0066): the circle log's newest signed checkpoint
 * with its cosignature lines, as GET /api/ledger/:circleId/checkpoint answers it, read after the blocks
 * (so every listed block is in it); absent on /blockchain and while the log has none signed.
 */
export const ZBlockListResponse = z.object({ blocks: z.array(ZBlock), checkpoint: z.optional(z.string()) })
export type TBlockListResponse = z.infer<typeof ZBlockListResponse>
export const ZBlockResponse = z.object({ block: ZBlock })

export const ZBlockIdParams = z.object({ id: z.uuid({ error: MESSAGES.blockNotFound }) })
export const ZBlockItemParams = z.object({ itemId: z.uuid({ error: MESSAGES.notFound }) })
export const ZBlockCircleParams = z.object({ circleId: z.uuid({ error: MESSAGES.notFound }) })

export const ZFailingBlock = z.object({
  index: z.number().check(z.int()),
  id: z.uuid(),
  hash: z.string(),
  expectedHash: z.string(),
})

/** Verification result (spec 001 §3): every block recomputed from its stored fields. */
export const ZVerificationResult = named(
  z.object({
    valid: z.boolean(),
    message: z.string(),
    blockCount: z.number().check(z.int()),
    failingBlocks: z.array(ZFailingBlock),
    /**
     * Issue 24: blocks written before encoding v3 whose names were redacted after a member deleted their
     * account. Their hash is taken as stored (it covered the name): their links and place in the signed
     * log are still checked.
     */
    redactedBlocks: z.number().check(z.int()),
    /** Issue 28: condition photos whose stored bytes are not the ones their block recorded. */
    failingPhotos: z.array(ZFailingPhoto),
    /**
     * Issue 29: whether the stored blocks make the root of the newest signed checkpoint (a block
     * rewritten with every hash recomputed, but not signed again, does not).
     */
    treeMatchesCheckpoint: z.boolean(),
  }),
  'VerificationResult',
)
export type TVerificationResult = z.infer<typeof ZVerificationResult>

// Issue 14: the verifiable log of each circle (RFC 6962 tree, C2SP checkpoints). Hashes are hex.
const ZHex32 = z.string().check(z.regex(/^[0-9a-f]{64}$/))
export const ZLedgerCircleParams = z.object({ circleId: z.uuid({ error: MESSAGES.notFound }) })
/** GET /api/ledger/keys: the verifier keys (C2SP signed-note form), the current one first. */
export const ZLedgerKeysResponse = z.object({ keys: z.array(z.string()).check(z.minLength(1)) })
/** GET /api/ledger/:circleId/checkpoint: the newest signed checkpoint note. */
export const ZCheckpointResponse = z.object({ checkpoint: z.string() })
const zCount = z.coerce.number().check(z.int(), z.gte(0), z.lte(2 ** 31 - 1))
export const ZInclusionQuery = z.object({ index: zCount, size: zCount })
export const ZConsistencyQuery = z.object({ from: zCount, to: zCount })
export const ZInclusionProofResponse = z.object({
  index: z.number().check(z.int()),
  size: z.number().check(z.int()),
  leafHash: ZHex32,
  proof: z.array(ZHex32),
  /** The signed checkpoint of that size, whose root the proof leads to. */
  checkpoint: z.string(),
})
/** Several audit paths in one tree: the ledger pages check every block they show (at most 500). */
export const ZInclusionBatchQuery = z.object({
  size: zCount,
  indexes: z.pipe(
    z.string().check(z.regex(/^\d{1,10}(,\d{1,10}){0,499}$/)),
    z.transform((list) => list.split(',').map(Number)),
  ),
})
export const ZInclusionBatchResponse = z.object({
  size: z.number().check(z.int()),
  checkpoint: z.string(),
  proofs: z.array(z.object({ index: z.number().check(z.int()), leafHash: ZHex32, proof: z.array(ZHex32) })),
})
/** What a confirmation's answer carries: the new block's inclusion in the newly signed checkpoint. */
export const ZLedgerReceipt = z.object({
  blockId: z.uuid(),
  index: z.number().check(z.int()),
  size: z.number().check(z.int()),
  leafHash: ZHex32,
  proof: z.array(ZHex32),
  checkpoint: z.string(),
})
export type TLedgerReceipt = z.infer<typeof ZLedgerReceipt>
export const ZConsistencyProofResponse = z.object({
  from: z.number().check(z.int()),
  to: z.number().check(z.int()),
  proof: z.array(ZHex32),
  checkpoint: z.string(),
})
