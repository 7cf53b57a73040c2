import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js'
import { leafHash } from './merkle'

/** The encoding version every block states; a new encoding gets a new number, old blocks keep theirs. */
export const BLOCK_VERSION = 1
/** The prevHash of a circle's first block. */
export const GENESIS_PREV_HASH = '0'.repeat(64)

export type OwnershipKind = 'COMPLETE' | 'PARTIAL'
export type BlockKind = 'HANDOVER' | 'AUTO_TRANSFER'

/**
 * What a block says, as it is hashed. Names are a snapshot (an item or an account renamed or deleted
 * later never changes a block). Comments and the secret message are in only as salted commitments.
 * Ids and times are strings; `height` counts from 0 per circle.
 */
export interface BlockContent {
  v: typeof BLOCK_VERSION
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

/** A JSON string of the NFC form of `text`; anything but a string is refused, as RFC 8785 code would. */
function text(value: string): string {
  if (typeof value !== 'string') throw new TypeError(`not a string: ${typeof value}`)
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
 * The bytes that are hashed: RFC 8785 JSON of the NFC-normalised content, UTF-8. Written out for the
 * fields of a block, keys in RFC 8785 order, because verifying a chain encodes every block: the tests
 * prove it byte-identical to the generic encoder in ./canonical for any content. Fields a block does
 * not have are not encoded, so a leaf carrying extra ones is not in canonical form.
 */
export function blockBytes(c: BlockContent): Uint8Array {
  const m = c.commitments
  const json =
    `{"circle":${party(c.circle)},` +
    `"commitments":{"receiverComment":${textOrNull(m.receiverComment)},` +
    `"requesterComment":${textOrNull(m.requesterComment)},"secretMessage":${textOrNull(m.secretMessage)}},` +
    `"first":${boolean(c.first)},"from":${party(c.from)},"handoverId":${textOrNull(c.handoverId)},` +
    `"height":${integer(c.height)},"item":${party(c.item)},"kind":${text(c.kind)},` +
    `"ownership":${text(c.ownership)},"prevHash":${text(c.prevHash)},"time":${text(c.time)},` +
    `"to":${party(c.to)},"v":${integer(c.v)}}`
  return utf8ToBytes(json)
}

/**
 * A block's hash: the RFC 6962 leaf hash of its bytes, in hex. A Merkle tree over these hashes (for
 * signed checkpoints and proofs) takes them as its leaves as they are: nothing is ever rehashed.
 */
export function blockHash(content: BlockContent): string {
  return bytesToHex(leafHash(blockBytes(content)))
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
 * previous block's hash (64 zeros and `first` for height 0).
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
        content.v === BLOCK_VERSION &&
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
