import { sha256, sha256HexOfText } from '#sha256'
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js'

/**
 * The encoding version new blocks are written in; a new encoding gets a new number, old blocks keep
 * theirs and keep verifying. v1: the original fields. v2 (issue 23, docs/decisions/0027): adds
 * `reason`, why an automatic transfer happened (null for a handover). v3 (issue 24, docs/decisions/0034):
 * v2's fields, but each party's name only as a salted commitment; the name and its salt are kept beside
 * the block, erasable, and the block still verifies once they are gone. v4 (issue 26, docs/decisions/0047):
 * v3's fields plus `loan` (`{ id, dueAt }` or null) and the loan kinds LOAN, RETURN and LOAN_CHANGE.
 * v5 (issue 28, docs/decisions/0057): v4's fields plus `evidence`, the condition each side recorded (the
 * SHA-256 of every photo's stored bytes, a salted commitment to each note, the receiver's 'as described').
 */
export const BLOCK_VERSION = 5
/** Every encoding version a chain may hold: blocks written before a new version stay as they are. */
export const BLOCK_VERSIONS = [1, 2, 3, 4, 5] as const
export type BlockVersion = (typeof BLOCK_VERSIONS)[number]
/** The prevHash of a circle's first block. */
export const GENESIS_PREV_HASH = '0'.repeat(64)

export type OwnershipKind = 'COMPLETE' | 'PARTIAL'
/** v1–v3 know HANDOVER and AUTO_TRANSFER; v4 adds the loan kinds (issue 26). */
export type BlockKind = 'HANDOVER' | 'AUTO_TRANSFER' | LoanBlockKind
/** A loan began (lender → borrower), ended (borrower → lender), or its date changed (lender → borrower). */
export type LoanBlockKind = 'LOAN' | 'RETURN' | 'LOAN_CHANGE'
export const LOAN_BLOCK_KINDS: readonly LoanBlockKind[] = ['LOAN', 'RETURN', 'LOAN_CHANGE']
/** What a v4 block says about a loan: its id, and the return date (null on a RETURN). */
export interface BlockLoan {
  id: string
  dueAt: string | null
}
/** Why an automatic transfer happened: the holder left the circle, or the admin removed them. */
export type TransferReason = 'LEFT' | 'REMOVED'

/**
 * A person in a v1/v2 block: the name in clear, hashed. `null` only in a block served after the name was
 * redacted (issue 24): such a content has no bytes, and its stored hash is taken as it is.
 */
export interface NamedParty {
  id: string
  name: string | null
}
/** A person in a v3 block: the name only as `nameCommitment(name, salt)`; name and salt are kept beside. */
export interface CommittedParty {
  id: string
  nameCommitment: string
}
/** The two people of a block. */
export type Side = 'from' | 'to'
export const SIDES: readonly Side[] = ['from', 'to']

/**
 * What a block says, as it is hashed. Names are a snapshot (an item or an account renamed or deleted
 * later never changes a block). Comments and the secret message are in only as salted commitments.
 * Ids and times are strings; `height` counts from 0 per circle.
 */
interface CommonFields {
  /** v1–v3; v4 widens it to the loan kinds. */
  kind: 'HANDOVER' | 'AUTO_TRANSFER'
  circle: { id: string; name: string }
  height: number
  prevHash: string
  first: boolean
  time: string
  handoverId: string | null
  item: { id: string; name: string }
  ownership: OwnershipKind
  commitments: {
    requesterComment: string | null
    receiverComment: string | null
    secretMessage: string | null
  }
}
interface BlockFields extends CommonFields {
  from: NamedParty
  to: NamedParty
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
/**
 * Encoding v3 (issue 24): v2's fields; `from` and `to` are `{"id","nameCommitment"}`, so the hash covers
 * no name. Every block the server writes since issue 24 is v3.
 */
export interface BlockContentV3 extends CommonFields {
  v: 3
  reason: TransferReason | null
  from: CommittedParty
  to: CommittedParty
}
/**
 * Encoding v4 (issue 26, docs/decisions/0047): v3's fields plus `loan`. LOAN: lender → borrower,
 * `loan.dueAt` the agreed date. RETURN: borrower → lender, `loan.dueAt` null. LOAN_CHANGE: lender →
 * borrower, the new date (`reason` LEFT/REMOVED when the loan was recalled because the borrower left).
 * HANDOVER and AUTO_TRANSFER carry `loan: null`. Every block the server writes since issue 26 is v4.
 */
export interface BlockContentV4 extends Omit<CommonFields, 'kind'> {
  v: 4
  kind: BlockKind
  reason: TransferReason | null
  loan: BlockLoan | null
  from: CommittedParty
  to: CommittedParty
}
/** The most photos each side of a handover records (issue 28). */
export const MAX_EVIDENCE_PHOTOS = 4
/** What one side recorded of the item's condition: a note's commitment and the photos' SHA-256s, in order. */
export interface SideEvidence {
  note: string | null
  photos: string[]
}
/**
 * A v5 block's condition evidence (issue 28): what the sender (`from`) and the receiver (`to`) recorded,
 * and whether the receiver accepted the item 'as described' (then `to` holds nothing of its own). Null
 * when neither side recorded anything, and always on AUTO_TRANSFER and LOAN_CHANGE (nobody hands over).
 */
export interface BlockEvidence {
  asDescribed: boolean
  from: SideEvidence
  to: SideEvidence
}
/** Encoding v5 (issue 28, docs/decisions/0057): v4's fields plus `evidence`. Every block since issue 28. */
export interface BlockContentV5 extends Omit<BlockContentV4, 'v'> {
  v: 5
  evidence: BlockEvidence | null
}
export type BlockContent = BlockContentV1 | BlockContentV2 | BlockContentV3 | BlockContentV4 | BlockContentV5
/** The versions whose parties are name commitments (the names kept beside the block). */
export type CommittedBlockContent = BlockContentV3 | BlockContentV4 | BlockContentV5
/** Whether a block's parties are commitments (v3 and later) rather than names in clear (v1/v2). */
export function hasCommittedNames(c: BlockContent): c is CommittedBlockContent {
  return c.v === 3 || c.v === 4 || c.v === 5
}
/** The condition evidence a block commits to: none before v5. */
export function evidenceOf(c: BlockContent): BlockEvidence | null {
  return c.v === 5 ? c.evidence : null
}

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
const party = (p: { id: string; name: string | null }) =>
  `{"id":${text(p.id)},"name":${text(p.name as string)}}`
// RFC 8785 order: "id" < "nameCommitment".
const committed = (p: CommittedParty) => `{"id":${text(p.id)},"nameCommitment":${text(p.nameCommitment)}}`
// RFC 8785 order: "dueAt" < "id".
function loanJson(loan: BlockLoan | null): string {
  if (loan === null) return 'null'
  if (typeof loan !== 'object') throw new TypeError(`not a loan: ${typeof loan}`)
  return `{"dueAt":${textOrNull(loan.dueAt)},"id":${text(loan.id)}}`
}
// RFC 8785 order: "note" < "photos"; "asDescribed" < "from" < "to".
function sideEvidenceJson(side: SideEvidence): string {
  if (typeof side !== 'object' || side === null || !Array.isArray(side.photos))
    throw new TypeError('not a side of evidence')
  return `{"note":${textOrNull(side.note)},"photos":[${side.photos.map(text).join(',')}]}`
}
function evidenceJson(evidence: BlockEvidence | null): string {
  if (evidence === null) return 'null'
  if (typeof evidence !== 'object') throw new TypeError(`not evidence: ${typeof evidence}`)
  return (
    `{"asDescribed":${boolean(evidence.asDescribed)},"from":${sideEvidenceJson(evidence.from)},` +
    `"to":${sideEvidenceJson(evidence.to)}}`
  )
}
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
  // v2 adds "reason", whose place in RFC 8785 key order is between "prevHash" and "time"; v3 keeps it
  // and encodes the parties as commitments. Any other version has no encoding: no hash to match.
  // v4 adds "loan" between "kind" and "ownership".
  let reason: string
  let from: string
  let to: string
  let loan = ''
  // v5 adds "evidence" between "commitments" and "first".
  let evidence = ''
  if (c.v === 1) [reason, from, to] = ['', party(c.from), party(c.to)]
  else if (c.v === 2) [reason, from, to] = [`"reason":${textOrNull(c.reason)},`, party(c.from), party(c.to)]
  else if (c.v === 3)
    [reason, from, to] = [`"reason":${textOrNull(c.reason)},`, committed(c.from), committed(c.to)]
  else if (c.v === 4 || c.v === 5) {
    ;[reason, from, to] = [`"reason":${textOrNull(c.reason)},`, committed(c.from), committed(c.to)]
    loan = `"loan":${loanJson(c.loan)},`
    if (c.v === 5) evidence = `"evidence":${evidenceJson(c.evidence)},`
  } else throw new TypeError(`not a block encoding version: ${String((c as { v: unknown }).v)}`)
  return (
    `{"circle":${party(c.circle)},` +
    `"commitments":{"receiverComment":${textOrNull(m.receiverComment)},` +
    `"requesterComment":${textOrNull(m.requesterComment)},"secretMessage":${textOrNull(m.secretMessage)}},` +
    `${evidence}"first":${boolean(c.first)},"from":${from},"handoverId":${textOrNull(c.handoverId)},` +
    `"height":${integer(c.height)},"item":${party(c.item)},"kind":${text(c.kind)},${loan}` +
    `"ownership":${text(c.ownership)},"prevHash":${text(c.prevHash)},${reason}"time":${text(c.time)},` +
    `"to":${to},"v":${integer(c.v)}}`
  )
}

const isReason = (reason: unknown) => reason === 'LEFT' || reason === 'REMOVED'
const HEX_64 = /^[0-9a-f]{64}$/
const isDigest = (value: unknown) => typeof value === 'string' && HEX_64.test(value)

function isSideEvidence(side: SideEvidence | undefined): boolean {
  return (
    !!side &&
    (side.note === null || isDigest(side.note)) &&
    Array.isArray(side.photos) &&
    side.photos.length <= MAX_EVIDENCE_PHOTOS &&
    side.photos.every(isDigest)
  )
}
const isEmptySide = (side: SideEvidence) => side.note === null && side.photos.length === 0

/**
 * Whether a v5 block's evidence fits it: only a handing over (HANDOVER, LOAN, RETURN) has any; each side
 * at most 4 photo digests and a note commitment; 'as described' leaves the receiver's side empty and
 * needs something of the sender's to refer to; an evidence with nothing in it is written as null.
 */
function isWellFormedEvidence(c: BlockContentV5): boolean {
  const e = c.evidence
  if (e === null) return true
  if (c.kind === 'AUTO_TRANSFER' || c.kind === 'LOAN_CHANGE') return false
  if (typeof e !== 'object' || typeof e.asDescribed !== 'boolean') return false
  if (!isSideEvidence(e.from) || !isSideEvidence(e.to)) return false
  if (e.asDescribed) return isEmptySide(e.to) && !isEmptySide(e.from)
  return !(isEmptySide(e.from) && isEmptySide(e.to))
}

/**
 * Whether a block's fields fit its version: v1 to v4 only; in v2 to v4 an automatic transfer names its
 * reason and a handover has none. (A v1 block never had one; its bytes cannot carry it.) The loan kinds
 * exist in v4 only: LOAN and LOAN_CHANGE name the loan and a date, RETURN the loan and no date; only a
 * recall (LOAN_CHANGE) has a reason; HANDOVER and AUTO_TRANSFER have no loan.
 */
export function isWellFormed(c: BlockContent): boolean {
  if (c.v === 1) return true
  if (c.v === 2 || c.v === 3) {
    if (c.kind === 'AUTO_TRANSFER') return isReason(c.reason)
    return c.kind === 'HANDOVER' && c.reason === null
  }
  if (c.v !== 4 && c.v !== 5) return false
  if (c.v === 5 && !isWellFormedEvidence(c)) return false
  const loan = c.loan
  switch (c.kind) {
    case 'HANDOVER':
      return c.reason === null && loan === null
    case 'AUTO_TRANSFER':
      return isReason(c.reason) && loan === null
    case 'LOAN':
      return c.reason === null && loan !== null && typeof loan.dueAt === 'string'
    case 'RETURN':
      return c.reason === null && loan !== null && loan.dueAt === null
    case 'LOAN_CHANGE':
      return (c.reason === null || isReason(c.reason)) && loan !== null && typeof loan.dueAt === 'string'
    default:
      return false
  }
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

/** The domain tag of the comment and secret-message commitments (issue 11). */
const COMMENT_TAG = 'circles/commitment/v1\n'
/** The domain tag of a v3 block's name commitments: never equal to a comment commitment of the same text. */
const NAME_TAG = 'circles/name-commitment/v1\n'
/** The domain tag of a v5 block's condition notes (issue 28). */
const NOTE_TAG = 'circles/condition-note/v1\n'

function saltedHash(tag: string, saltHex: string, text: string): string {
  const salt = hexToBytes(saltHex)
  if (salt.length < 16) throw new RangeError('a commitment salt has at least 16 bytes')
  const head = utf8ToBytes(tag)
  const body = utf8ToBytes(text.normalize('NFC'))
  const input = new Uint8Array(head.length + salt.length + body.length)
  input.set(head, 0)
  input.set(salt, head.length)
  input.set(body, head.length + salt.length)
  return bytesToHex(sha256(input))
}

/**
 * A salted commitment to a text that must not enter the block in clear: SHA-256 of a domain tag, the
 * 16+ byte salt and the NFC text. Whoever holds salt and text can show they match; the block alone
 * reveals nothing. Empty or absent text: no commitment (null).
 */
export function commitment(text: string | null | undefined, saltHex: string): string | null {
  if (!text) return null
  return saltedHash(COMMENT_TAG, saltHex, text)
}

/**
 * The commitment to a person's name in a v3 block (issue 24): SHA-256 of its own domain tag, the 16+
 * byte salt and the NFC name. The salt makes a guessed name uncheckable without it; erasing the name and
 * the salt leaves the block verifying, with nothing left that reads or confirms the name.
 */
export function nameCommitment(name: string, saltHex: string): string {
  if (typeof name !== 'string') throw new TypeError(`not a string: ${typeof name}`)
  return saltedHash(NAME_TAG, saltHex, name)
}

/**
 * The commitment to a condition note in a v5 block (issue 28): like a comment's, with its own domain tag.
 * Empty or absent note: no commitment (null).
 */
export function noteCommitment(note: string | null | undefined, saltHex: string): string | null {
  if (!note) return null
  return saltedHash(NOTE_TAG, saltHex, note)
}

/** A name kept beside a v3 block, with its salt; both null once erased. */
export interface KeptName {
  name: string | null
  salt: string | null
}
export type KeptNames = Record<Side, KeptName>

/** Whether a kept name opens the block's commitment: erased (both null) is fine; half erased is not. */
export function opensCommitment(kept: KeptName | undefined, commitmentHex: string): boolean {
  if (!kept || (kept.name === null && kept.salt === null)) return true
  if (kept.name === null || kept.salt === null) return false
  try {
    return nameCommitment(kept.name, kept.salt) === commitmentHex
  } catch {
    return false
  }
}

/** A block as stored: its content's fields plus the id and hash the server recorded. */
export interface StoredBlock {
  id: string
  hash: string
  content: BlockContent
  /** v3: the names and salts kept beside the block (null where erased). */
  names?: KeptNames
  /**
   * v1/v2 (issue 24): the parties whose name was redacted, their `name` null in `content`. Such a
   * block's bytes are gone: its stored hash is taken, and only its links and place are checked.
   */
  redacted?: Side[]
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

const HASH = /^[0-9a-f]{64}$/

/** Whether a stored block is a redacted v1/v2 block: its marker names exactly its null names. */
export function isRedacted(block: StoredBlock): boolean {
  const c = block.content
  if (!block.redacted?.length || (c.v !== 1 && c.v !== 2)) return false
  return SIDES.every((side) => (c[side].name === null) === block.redacted!.includes(side))
}

/**
 * One block on its own, without its links: 'ok' when its hash is its content's hash and the names kept
 * beside a v3 block open its commitments; 'redacted' for a v1/v2 block whose names were redacted (its
 * hash cannot be recomputed: only its links and its place in the signed log can vouch for it);
 * 'mismatch' otherwise.
 */
export function checkBlock(block: StoredBlock): 'ok' | 'redacted' | 'mismatch' {
  const { content } = block
  if (isRedacted(block)) return HASH.test(block.hash) ? 'redacted' : 'mismatch'
  if (hashOrEmpty(content) !== block.hash) return 'mismatch'
  if (
    hasCommittedNames(content) &&
    !SIDES.every((s) => opensCommitment(block.names?.[s], content[s].nameCommitment))
  )
    return 'mismatch'
  return 'ok'
}

export interface ChainResult {
  valid: boolean
  blockCount: number
  failingBlocks: FailingBlock[]
  /**
   * Blocks written before v3 whose names were redacted (issue 24): their hash cannot be recomputed; it
   * was taken as stored and checked by the links around it (and, where checkpoints are at hand, by the
   * signed Merkle tree).
   */
  redactedBlocks: number
}

/**
 * Checks a circle's chain one block at a time, in height order, so a long chain never has to be held
 * in memory: each block's hash must be its content's hash, its height the next one, its prevHash the
 * previous block's hash (64 zeros and `first` for height 0), its fields those of its version (v1, v2
 * or v3, mixed in one chain: blocks written before a version keep theirs). A v3 block's kept names must
 * open its commitments (erased ones are not checked: the hash covers only the commitments). A redacted
 * v1/v2 block's hash is taken as stored: its links are checked, and the next block must link to it.
 */
export function createChainVerifier() {
  let index = 0
  let previousHash = GENESIS_PREV_HASH
  let redactedBlocks = 0
  /** The previous block when it was redacted and not yet reported: the next link vouches for its hash. */
  let unpinned: FailingBlock | null = null
  const failing: FailingBlock[] = []
  return {
    push(block: StoredBlock): void {
      const { content } = block
      const redacted = isRedacted(block)
      const expectedHash = redacted ? block.hash : hashOrEmpty(content)
      const linked =
        isWellFormed(content) &&
        content.height === index &&
        content.first === (index === 0) &&
        content.prevHash === previousHash
      const namesOpen =
        !hasCommittedNames(content) ||
        SIDES.every((side) => opensCommitment(block.names?.[side], content[side].nameCommitment))
      const hashOk = redacted ? HASH.test(block.hash) : expectedHash === block.hash
      // A redacted block that the next block, itself proven by its hash, does not link to: its stored
      // hash is not the chain's. (A redacted next block proves nothing: its own link is reported.)
      if (unpinned && !redacted && hashOk && content.prevHash !== unpinned.hash) {
        failing.push({ ...unpinned, expectedHash: String(content.prevHash) })
      }
      unpinned = null
      if (!linked || !hashOk || !namesOpen) {
        failing.push({ index, id: block.id, hash: block.hash, expectedHash })
      } else if (redacted) {
        unpinned = { index, id: block.id, hash: block.hash, expectedHash }
      }
      if (redacted) redactedBlocks += 1
      // The next block must link to what is stored: one bad block is reported once, not all after it.
      previousHash = block.hash
      index += 1
    },
    result(): ChainResult {
      const failingBlocks = [...failing].sort((a, b) => a.index - b.index)
      return { valid: failing.length === 0, blockCount: index, failingBlocks, redactedBlocks }
    },
  }
}
