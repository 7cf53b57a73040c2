import {
  checkBlock,
  hashToHex,
  hexToHash,
  inclusionVerifier,
  openCheckpoint,
  parseCheckpoint,
  parseNote,
  parseVerifierKey,
  TileMismatchError,
  verifyConsistency,
  verifyInclusion,
  type BlockContent,
  type Checkpoint,
  type Hash,
  type KeptNames,
  type NoteKey,
  type Side,
} from '@circles/ledger'
import type { TCircleWitnessesResponse, TLedgerReceipt } from '@circles/shared'

/** A member's device key, as GET /api/ledger/:circleId/witnesses gives it. */
export type Witness = TCircleWitnessesResponse['witnesses'][number]

/**
 * What shows two members two histories (issue 29):
 * - 'other-root': another member's device cosigned a checkpoint of the same size whose text is not the
 *   one this device verified (its line, served at that size, does not verify over ours);
 * - 'inconsistent': another member's device cosigned the checkpoint the server gave now, which does not
 *   extend the one this device remembered (a fork, a rollback or a failed consistency proof).
 */
export interface SplitView {
  kind: 'other-root' | 'inconsistent'
  size: number
  /** The cosigning device's key, with its member's name (docs/decisions/0064). */
  witness: Witness
  /** The device is another one of this account's own ('your other device'); absent in older evidence. */
  ownAccount?: boolean
  /** The other device's cosignature line, as served. */
  line: string
}

/** What this device remembers of a circle's log: the newest checkpoint it verified (IndexedDB). */
export interface RememberedCheckpoint {
  circleId: string
  note: string
  size: number
  rootHash: string
  verifiedAt: string
}

/**
 * How the server's log can break a promise it signed; each raises the 'history was rewritten' alarm.
 * 'split-view' (issue 29, split-view.ts): another member's device cosigned another history.
 */
export type AlarmReason =
  'signature' | 'rollback' | 'fork' | 'consistency' | 'inclusion' | 'hash' | 'split-view'

export interface Evidence {
  kind: 'circles-ledger-evidence'
  version: 1
  circleId: string
  reason: AlarmReason
  detectedAt: string
  /** The verifier keys the server published. */
  keys: string[]
  /** The checkpoint this device had verified before. */
  remembered: RememberedCheckpoint | null
  /** The signed checkpoint the server gave now. */
  received: string
  /** The proof that failed, as the server sent it. */
  proof?: unknown
  /** The block whose content or inclusion did not check out. */
  block?: { id: string; height: number; hash: string; content: BlockContent }
  /** A split view: the other member's cosignature line and the witness keys it was read with. */
  splitView?: SplitView & { witnesses: string[] }
}

export type CircleVerification =
  | {
      state: 'verified'
      circleId: string
      size: number
      verifiedAt: string
      blockIds: string[]
      /** The checkpoint the shown blocks were proven against: the signed note and its root (hex). */
      note: string
      rootHash: string
      /**
       * Set when the check ran offline on what this device stored (issue 27, docs/decisions/0054):
       * when the proofs and their checkpoint were stored.
       */
      offlineFrom?: string
      /**
       * Issue 29: why this device could not cosign the checkpoint (the server's or the network's
       * message), when it could not; the check itself stands.
       */
      cosignError?: string
    }
  | {
      state: 'alarm'
      circleId: string
      reason: AlarmReason
      /** The size this device saw before, and the size of the checkpoint received now, when known. */
      seenSize: number | null
      size: number | null
      evidence: Evidence
    }

export interface ShownBlock {
  id: string
  hash: string
  content: BlockContent
  /** The names kept beside the block (v3: with the salts that open its commitments). */
  names?: KeptNames
  /** A v1/v2 block whose names were redacted (issue 24): its hash is taken, its place proven. */
  redacted?: Side[]
}

/**
 * The server calls and the device's memory the check needs (injected, so tests run without either).
 * The proofs are built on this device from tiles checked against the signed root they are given
 * (tile-proofs.ts, docs/decisions/0060); tiles that do not make it throw TileMismatchError.
 */
export interface VerifyDeps {
  keys: string[]
  checkpoint(circleId: string): Promise<string>
  /**
   * The newest checkpoint the server sent with the shown blocks (docs/decisions/0066), checked instead of
   * asking `checkpoint`; asked anyway when it is smaller than what this device remembers (an answer that
   * waited in a cache while this device verified a newer one elsewhere is no rollback).
   */
  delivered?: string
  consistency(circleId: string, from: number, to: number, rootHash: Hash): Promise<{ proof: string[] }>
  inclusions(
    circleId: string,
    indexes: number[],
    size: number,
    rootHash: Hash,
  ): Promise<{ proofs: { index: number; proof: string[] }[] }>
  remembered(circleId: string): Promise<RememberedCheckpoint | undefined>
  remember(checkpoint: RememberedCheckpoint): Promise<void>
  now?: () => Date
}

const PROOFS_PER_CALL = 500

/** A checkpoint's size as its text says (unchecked: its signature is checked where it is used). */
function sizeOf(note: string): number {
  try {
    return parseCheckpoint(parseNote(note).text).size
  } catch {
    return Number.POSITIVE_INFINITY
  }
}

/**
 * Checks a circle's log on this device (issue 14): the newest checkpoint's signature and origin, that it
 * extends the checkpoint this device saw last (no rollback, no fork), that every shown block hashes to
 * its recorded hash and sits in the signed tree. Only then is the new checkpoint remembered. A broken
 * promise answers an alarm with the evidence; a failing call throws (that is not proof of anything).
 *
 * With a confirmation's `receipt`, its checkpoint is the one checked (not the server's newest) and its
 * block's audit path must hold in it: the receiver's device remembers a signed tree holding their block.
 */
export async function verifyCircle(
  circleId: string,
  blocks: readonly ShownBlock[],
  deps: VerifyDeps,
  receipt?: TLedgerReceipt,
): Promise<CircleVerification> {
  const now = () => (deps.now ?? (() => new Date()))()
  const known: NoteKey[] = deps.keys.map(parseVerifierKey)
  const delivered = receipt ? undefined : deps.delivered
  let received = receipt?.checkpoint ?? delivered ?? (await deps.checkpoint(circleId))
  const remembered = (await deps.remembered(circleId)) ?? null
  if (delivered !== undefined && remembered && sizeOf(delivered) < remembered.size)
    received = await deps.checkpoint(circleId)
  let checkpoint: Checkpoint | undefined
  const alarm = (reason: AlarmReason, extra: Pick<Evidence, 'proof' | 'block'> = {}): CircleVerification => ({
    state: 'alarm',
    circleId,
    reason,
    seenSize: remembered?.size ?? null,
    size: checkpoint?.size ?? null,
    evidence: {
      kind: 'circles-ledger-evidence',
      version: 1,
      circleId,
      reason,
      detectedAt: now().toISOString(),
      keys: deps.keys,
      remembered,
      received,
      ...extra,
    },
  })

  try {
    checkpoint = openCheckpoint(received, known).checkpoint
  } catch {
    return alarm('signature')
  }
  if (!checkpoint.origin.endsWith(`/circle/${circleId}`)) return alarm('signature')
  const root = hashToHex(checkpoint.rootHash)

  /** Tiles that do not make the signed tree are the server's broken promise, named as evidence. */
  const tilesOr = async <T>(
    reason: AlarmReason,
    build: () => Promise<T>,
  ): Promise<T | CircleVerification> => {
    try {
      return await build()
    } catch (error) {
      if (!(error instanceof TileMismatchError)) throw error
      const { size, rootHash } = checkpoint!
      return alarm(reason, {
        proof: { type: 'tiles', size, rootHash: hashToHex(rootHash), tiles: error.paths },
      })
    }
  }
  const isAlarm = (answer: object): answer is CircleVerification => 'state' in answer

  if (remembered) {
    if (remembered.size > checkpoint.size) return alarm('rollback')
    if (remembered.size === checkpoint.size && remembered.rootHash !== root) return alarm('fork')
    if (remembered.size > 0 && remembered.size < checkpoint.size) {
      const { size, rootHash } = checkpoint
      const answer = await tilesOr('consistency', () =>
        deps.consistency(circleId, remembered.size, size, rootHash),
      )
      if (isAlarm(answer)) return answer
      const proof = { type: 'consistency', from: remembered.size, to: checkpoint.size, ...answer }
      const holds = verifyConsistency(
        remembered.size,
        checkpoint.size,
        hexToHash(remembered.rootHash),
        checkpoint.rootHash,
        answer.proof.map(hexToHash),
      )
      if (!holds) return alarm('consistency', { proof })
    }
  }

  if (receipt) {
    const { index, size, leafHash, proof } = receipt
    const holds =
      size === checkpoint.size &&
      verifyInclusion(index, size, hexToHash(leafHash), proof.map(hexToHash), checkpoint.rootHash)
    if (!holds) return alarm('inclusion', { proof: { type: 'inclusion', index, size, leafHash, proof } })
  }

  for (const block of blocks) {
    const described = { id: block.id, height: block.content.height, hash: block.hash, content: block.content }
    // Recomputed here (a v3 block's kept names must open its commitments). A redacted block's hash
    // cannot be: its inclusion in the signed tree below is what vouches for it (docs/decisions/0034).
    if (checkBlock(block) === 'mismatch') return alarm('hash', { block: described })
    if (block.content.height >= checkpoint.size) return alarm('inclusion', { block: described })
  }
  // The shown blocks' paths share most of their hashes (the newest blocks all but their lowest levels):
  // checked together, each shared node is hashed once.
  const inSignedTree = inclusionVerifier(checkpoint.size, checkpoint.rootHash)
  for (let start = 0; start < blocks.length; start += PROOFS_PER_CALL) {
    const page = blocks.slice(start, start + PROOFS_PER_CALL)
    const { size, rootHash } = checkpoint
    const heights = page.map((b) => b.content.height)
    const answer = await tilesOr('inclusion', () => deps.inclusions(circleId, heights, size, rootHash))
    if (isAlarm(answer)) return answer
    const proofs = new Map(answer.proofs.map((p) => [p.index, p.proof]))
    for (const block of page) {
      const { height } = block.content
      const proof = proofs.get(height) ?? []
      // Our own hash of the content (checked above), never the server's leaf hash; for a redacted
      // block the stored hash, whose place in the signed tree is what this proves.
      const holds = inSignedTree(height, hexToHash(block.hash), proof.map(hexToHash))
      if (!holds) {
        return alarm('inclusion', {
          proof: { type: 'inclusion', index: height, size: checkpoint.size, proof },
          block: { id: block.id, height, hash: block.hash, content: block.content },
        })
      }
    }
  }

  const verifiedAt = now().toISOString()
  if (!remembered || checkpoint.size >= remembered.size) {
    await deps.remember({ circleId, note: received, size: checkpoint.size, rootHash: root, verifiedAt })
  }
  return {
    state: 'verified',
    circleId,
    size: checkpoint.size,
    verifiedAt,
    blockIds: blocks.map((b) => b.id),
    note: received,
    rootHash: root,
  }
}
