import { sha256, sha256HexOfText } from '#sha256'
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js'

/**
 * The encoding version new blocks are written in; a new encoding gets a new number, old blocks keep
 * theirs and keep verifying. v1: the original fields. v2 (issue 23, docs/decisions/0027): adds
 * `reason`, why an automatic transfer happened (null for a handover).
 */
export const BLOCK_VERSION = 2
/** Every encoding version a chain may hold: blocks written before a new version stay as they are. */
export const BLOCK_VERSIONS = [1, 2] as const
export type BlockVersion = (typeof BLOCK_VERSIONS)[number]
/** The prevHash of a circle's first block. */
export const GENESIS_PREV_HASH = '0'.repeat(64)

export type OwnershipKind = 'COMPLETE' | 'PARTIAL'
export type BlockKind = 'HANDOVER' | 'AUTO_TRANSFER'
/** Why an automatic transfer happened: the holder left the circle, or the admin removed them. */
export type TransferReason = 'LEFT' | 'REMOVED'

/**
 * What a block says, as it is hashed. Names are a snapshot (an item or an account renamed or deleted
 * later never changes a block). Comments and the secret message are in only as salted commitments.
 * Ids and times are strings; `height` counts from 0 per circle.
 */
interface BlockFields {
  kind: BlockKind
  circle: { id: string; name: string }
  height: number
  prevHash: string
  first: boolean
  time: string
  handoverId: string | null
  item: { id: string; name: string }
  from: { id: string; name: string }
  to: { id: string; name: string }
  ownership: OwnershipKind
  commitments: {
    requesterComment: string | null
    receiverComment: string | null
    secretMessage: string | null
  }
}
/** Encoding v1: every block written before issue 23. Its bytes have no `reason`. */
export interface BlockContentV1 extends BlockFields {
  v: 1
}
/** Encoding v2: v1's fields and `reason` (AUTO_TRANSFER: LEFT or REMOVED; HANDOVER: null). */
export interface BlockContentV2 extends BlockFields {
  v: 2
  reason: TransferReason | null
}
export type BlockContent = BlockContentV1 | BlockContentV2

/** Printable ASCII without '"' and '\\': NFC leaves it as it is and JSON quotes it without escapes. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/

/** A JSON string of the NFC form of `text`; anything but a string is refused, as RFC 8785 code would. */
function text(value: string): string {
  if (typeof value !== 'string') throw new TypeError(`not a string: ${typeof value}`)
  // Ids, hashes, times and most names: the same bytes, without normalising and escaping (verify
  // encodes every block of a chain; the property tests compare with the generic encoder).
  if (PLAIN.test(value)) return `"${value}"`
  return JSON.stringify(value.normalize('NFC'))
}
const textOrNull = (value: string | null) => (value === null ? 'null' : text(value))
const party = (p: { id: string; name: string }) => `{"id":${text(p.id)},"name":${text(p.name)}}`
function integer(value: number): string {
  if (!Number.isSafeInteger(value)) throw new TypeError(`not a safe integer: ${value}`)
  return String(value)
}
function boolean(value: boolean): string {
  if (typeof value !== 'boolean') throw new TypeError(`not a boolean: ${typeof value}`)
  return String(value)
}

/**
 * The text whose UTF-8 bytes are hashed: RFC 8785 JSON of the NFC-normalised content. Written out for
 * the fields of a block, keys in RFC 8785 order, because verifying a chain encodes every block: the
 * tests prove it byte-identical to the generic encoder in ./canonical for any content. Fields a block
 * does not have are not encoded, so a leaf carrying extra ones is not in canonical form. It is always
 * well-formed Unicode (JSON.stringify escapes lone surrogates), so its UTF-8 is the same everywhere.
 */
function blockJson(c: BlockContent): string {
  const m = c.commitments
  // v2 adds "reason", whose place in RFC 8785 key order is between "prevHash" and "time". Any other
  // version has no encoding: such a block has no hash to match.
  let reason: string
  if (c.v === 1) reason = ''
  else if (c.v === 2) reason = `"reason":${textOrNull(c.reason)},`
  else throw new TypeError(`not a block encoding version: ${String((c as { v: unknown }).v)}`)
  return (
    `{"circle":${party(c.circle)},` +
    `"commitments":{"receiverComment":${textOrNull(m.receiverComment)},` +
    `"requesterComment":${textOrNull(m.requesterComment)},"secretMessage":${textOrNull(m.secretMessage)}},` +
    `"first":${boolean(c.first)},"from":${party(c.from)},"handoverId":${textOrNull(c.handoverId)},` +
    `"height":${integer(c.height)},"item":${party(c.item)},"kind":${text(c.kind)},` +
    `"ownership":${text(c.ownership)},"prevHash":${text(c.prevHash)},${reason}"time":${text(c.time)},` +
    `"to":${party(c.to)},"v":${integer(c.v)}}`
  )
}

/**
 * Whether a block's fields fit its version: v1 and v2 only; in v2 an automatic transfer names its
 * reason and a handover has none. (A v1 block never had one; its bytes cannot carry it.)
 */
export function isWellFormed(c: BlockContent): boolean {
  if (c.v === 1) return true
  if (c.v !== 2) return false
  return c.kind === 'AUTO_TRANSFER' ? c.reason === 'LEFT' || c.reason === 'REMOVED' : c.reason === null
}

/** The bytes that are hashed: the canonical JSON of the content, UTF-8. */
export function blockBytes(c: BlockContent): Uint8Array {
  return utf8ToBytes(blockJson(c))
}

/**
 * A block's hash: the RFC 6962 leaf hash of its bytes, in hex. A Merkle tree over these hashes (for
 * signed checkpoints and proofs) takes them as its leaves as they are: nothing is ever rehashed.
 * (U+0000 is the leaf prefix 0x00 in UTF-8, so the text is hashed without building the bytes first.)
 */
export function blockHash(content: BlockContent): string {
  return sha256HexOfText(`\u0000${blockJson(content)}`)
}

/**
 * A salted commitment to a text that must not enter the block in clear: SHA-256 of a domain tag, the
 * 16+ byte salt and the NFC text. Whoever holds salt and text can show they match; the block alone
 * reveals nothing. Empty or absent text: no commitment (null).
 */
export function commitment(text: string | null | undefined, saltHex: string): string | null {
  if (!text) return null
  const salt = hexToBytes(saltHex)
  if (salt.length < 16) throw new RangeError('a commitment salt has at least 16 bytes')
  const tag = utf8ToBytes('circles/commitment/v1\n')
  const body = utf8ToBytes(text.normalize('NFC'))
  const input = new Uint8Array(tag.length + salt.length + body.length)
  input.set(tag, 0)
  input.set(salt, tag.length)
  input.set(body, tag.length + salt.length)
  return bytesToHex(sha256(input))
}

/** A block as stored: its content's fields plus the id and hash the server recorded. */
export interface StoredBlock {
  id: string
  hash: string
  content: BlockContent
}

export interface FailingBlock {
  index: number
  id: string
  hash: string
  expectedHash: string
}

/** A content that cannot be encoded (a field missing or of another type) has no hash to match. */
function hashOrEmpty(content: BlockContent): string {
  try {
    return blockHash(content)
  } catch {
    return ''
  }
}

/**
 * Checks a circle's chain one block at a time, in height order, so a long chain never has to be held
 * in memory: each block's hash must be its content's hash, its height the next one, its prevHash the
 * previous block's hash (64 zeros and `first` for height 0), its fields those of its version (v1 or
 * v2, mixed in one chain: blocks written before v2 keep theirs).
 */
export function createChainVerifier() {
  let index = 0
  let previousHash = GENESIS_PREV_HASH
  const failing: FailingBlock[] = []
  return {
    push(block: StoredBlock): void {
      const expectedHash = hashOrEmpty(block.content)
      const { content } = block
      const linked =
        isWellFormed(content) &&
        content.height === index &&
        content.first === (index === 0) &&
        content.prevHash === previousHash
      if (!linked || expectedHash !== block.hash) {
        failing.push({ index, id: block.id, hash: block.hash, expectedHash })
      }
      // The next block must link to what is stored: one bad block is reported once, not all after it.
      previousHash = block.hash
      index += 1
    },
    result(): { valid: boolean; blockCount: number; failingBlocks: FailingBlock[] } {
      return { valid: failing.length === 0, blockCount: index, failingBlocks: failing }
    },
  }
}
