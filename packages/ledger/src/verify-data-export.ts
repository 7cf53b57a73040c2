import {
  blockBytes,
  checkBlock,
  hasCommittedNames,
  type BlockContent,
  type KeptNames,
  type StoredBlock,
} from './block'
import { openCheckpoint } from './checkpoint'
import { createCosignatureCheck, type CosignatureReport } from './cosignature-report'
import { equalHashes, leafHash, verifyInclusion, type Hash } from './merkle'
import { NoteError, parseVerifierKey, type NoteKey } from './note'

/**
 * Checks the ledger part of a person's "Download my data" file (`circles-data.json`, issue 24,
 * docs/decisions/0038) offline. A person's blocks are a subset of each circle's chain, so they are not
 * checked link by link but each against the circle's signed tree head: its bytes against its hash, its
 * decoded content against its bytes, and its RFC 6962 audit path to the checkpoint, whose signature is
 * checked with `keys` (else the keys the file names). A v3 block's names kept beside it must open its
 * commitments; a v1/v2 block whose names were redacted has no bytes: its stored hash is taken and its
 * audit path proves it is in the signed log (`redactedBlocks` counts them).
 */
export interface DataExportVerification {
  valid: boolean
  /** Circles and blocks that were checked. */
  circleCount: number
  blockCount: number
  /** Blocks whose names were redacted (v1/v2, issue 24): checked by their place in the signed log. */
  redactedBlocks: number
  /** Every reason it is not valid, in words. */
  problems: string[]
  /**
   * Issue 29: the witnesses' cosignatures on each circle's checkpoint (keys: `cosigners`, else each
   * circle's `cosigners`). Reported only; never a reason the file is not valid (docs/decisions/0064).
   */
  cosignatures: CosignatureReport
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
const fromHex = (text: string): Hash =>
  /^(?:[0-9a-f]{2})*$/i.test(text)
    ? Uint8Array.from(text.match(/../g) ?? [], (pair) => parseInt(pair, 16))
    : new Uint8Array(0)
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
const decoder = new TextDecoder()

const NO_COSIGNATURES: CosignatureReport = { cosigners: [], problems: [] }
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((k): k is string => typeof k === 'string') : []

export function verifyDataExport(
  text: string,
  opts: { keys?: string[]; cosigners?: string[] } = {},
): DataExportVerification {
  const problems: string[] = []
  let file: unknown
  try {
    file = JSON.parse(text)
  } catch {
    return {
      valid: false,
      circleCount: 0,
      blockCount: 0,
      redactedBlocks: 0,
      problems: ['the file is not JSON'],
      cosignatures: NO_COSIGNATURES,
    }
  }
  const ledger = isObject(file) ? file.ledger : undefined
  if (
    !isObject(file) ||
    file.format !== 'circles-data' ||
    !isObject(ledger) ||
    !Array.isArray(ledger.circles)
  )
    return {
      valid: false,
      circleCount: 0,
      blockCount: 0,
      redactedBlocks: 0,
      problems: ['not a circles-data.json with a ledger'],
      cosignatures: NO_COSIGNATURES,
    }

  let keys: NoteKey[] = []
  try {
    const named = Array.isArray(ledger.keys) ? ledger.keys.filter((k) => typeof k === 'string') : []
    keys = (opts.keys ?? named).map(parseVerifierKey)
  } catch (error) {
    problems.push(`a verifier key is malformed: ${(error as Error).message}`)
  }
  if (keys.length === 0) problems.push('no verifier key to check signatures with')

  const named = (ledger.circles as unknown[]).flatMap((c) => (isObject(c) ? strings(c.cosigners) : []))
  const cosignatures = createCosignatureCheck(opts.cosigners ?? [...new Set(named)])
  let blockCount = 0
  let redactedCount = 0
  for (const [n, circle] of (ledger.circles as unknown[]).entries()) {
    const where = `circle ${n + 1}`
    if (!isObject(circle) || typeof circle.origin !== 'string' || !Array.isArray(circle.blocks)) {
      problems.push(`${where}: not a circle of the ledger part`)
      continue
    }
    let size = 0
    let root: Hash | null = null
    if (typeof circle.checkpoint !== 'string')
      problems.push(`${where}: no signed checkpoint to check against`)
    else {
      cosignatures.add(circle.checkpoint, `${where}'s checkpoint`)
      try {
        const { checkpoint } = openCheckpoint(circle.checkpoint, keys, circle.origin)
        ;({ size } = checkpoint)
        root = checkpoint.rootHash
      } catch (error) {
        problems.push(
          `${where}: its checkpoint: ${error instanceof NoteError ? error.message : 'unreadable'}`,
        )
      }
    }
    for (const block of circle.blocks as unknown[]) {
      blockCount++
      if (!isObject(block) || typeof block.hash !== 'string' || !Number.isSafeInteger(block.height)) {
        problems.push(`${where}: a block without hash or height`)
        continue
      }
      const what = `${where}, block ${block.height as number}`
      let hash: Hash
      if (block.redacted !== undefined) {
        // A v1/v2 block whose names were redacted (issue 24): its bytes held the name and are gone. Its
        // hash is taken as stored; the audit path below still proves it is in the signed log.
        const stored = {
          id: String(block.id),
          hash: block.hash,
          content: block.content,
          redacted: block.redacted,
        }
        let state = 'mismatch'
        try {
          state = checkBlock(stored as StoredBlock)
        } catch {
          // A content that is not a block's: reported below.
        }
        if (state !== 'redacted' || !isObject(block.content)) {
          problems.push(`${what}: not a redacted block`)
          continue
        }
        if (block.content.height !== block.height)
          problems.push(`${what}: its content names another place in the log`)
        redactedCount++
        hash = fromHex(block.hash)
      } else {
        if (typeof block.leaf !== 'string') {
          problems.push(`${what}: a block without its leaf`)
          continue
        }
        let leaf: Uint8Array
        let content: BlockContent
        try {
          leaf = fromBase64(block.leaf)
          content = JSON.parse(decoder.decode(leaf)) as BlockContent
        } catch {
          problems.push(`${what}: its leaf bytes do not decode`)
          continue
        }
        hash = leafHash(leaf)
        if (hex(hash) !== block.hash) problems.push(`${what}: its hash is not the hash of its leaf`)
        try {
          if (!equalHashes(blockBytes(content), leaf))
            problems.push(`${what}: its leaf is not in canonical form`)
          if (block.content !== undefined && !equalHashes(blockBytes(block.content as BlockContent), leaf))
            problems.push(`${what}: its content is not what its leaf holds`)
          // The names kept beside a v3 block must open its commitments (erased ones are not checked).
          if (
            hasCommittedNames(content) &&
            checkBlock({
              id: String(block.id),
              hash: block.hash,
              content,
              names: block.names as KeptNames,
            }) !== 'ok'
          )
            problems.push(`${what}: a name beside it does not open its commitment`)
        } catch {
          problems.push(`${what}: its content is not a block's content`)
        }
        if (content.height !== block.height || (circle.circleId && content.circle?.id !== circle.circleId))
          problems.push(`${what}: its leaf names another place in the log`)
      }
      const proof = Array.isArray(block.inclusionProof) ? block.inclusionProof : null
      if (root && proof) {
        const path = proof.map((p) => (typeof p === 'string' ? fromHex(p) : new Uint8Array(0)))
        if (!verifyInclusion(block.height as number, size, hash, path, root))
          problems.push(`${what}: its audit path does not lead to the signed checkpoint`)
      } else if (root) problems.push(`${what}: no audit path`)
    }
  }
  return {
    valid: problems.length === 0,
    circleCount: (ledger.circles as unknown[]).length,
    blockCount,
    redactedBlocks: redactedCount,
    problems,
    cosignatures: cosignatures.result(),
  }
}
