import {
  blockBytes,
  createChainVerifier,
  SIDES,
  type BlockContent,
  type FailingBlock,
  type KeptNames,
  type Side,
} from './block'
import { openCheckpoint, type Checkpoint } from './checkpoint'
import { createCosignatureCheck, type CosignatureReport } from './cosignature-report'
import {
  appendLeaf,
  emptyFrontier,
  emptyRoot,
  equalHashes,
  frontierRoot,
  leafHash,
  rootHash,
  type Hash,
} from './merkle'
import { NoteError, parseVerifierKey, type NoteKey } from './note'

/**
 * What a circle's export (GET /api/ledger/:circleId/export) holds, one JSON object per line. A block
 * line carries its leaf bytes (base64), and for v3 the names kept beside it (`names`, null where
 * erased). A v1/v2 block whose names were redacted (issue 24) carries no leaf (its bytes held the
 * name): `redacted` names the parties, and `content` is its content with those names null.
 */
type BlockLine = {
  type: 'block'
  id: string
  height: number
  hash: string
  leaf?: string
  names?: KeptNames
  redacted?: Side[]
  content?: BlockContent
}
type ExportLine =
  /** `cosigners` (since issue 29): the verifier keys of the witnesses whose lines are on the checkpoints. */
  | { type: 'log'; origin: string; keys: string[]; cosigners?: string[] }
  | BlockLine
  | { type: 'checkpoint'; size: number; note: string }

export interface ExportVerification {
  valid: boolean
  blockCount: number
  failingBlocks: FailingBlock[]
  /** Redacted v1/v2 blocks: their hash taken as stored, checked by the links and the signed tree. */
  redactedBlocks: number
  /** The newest signed checkpoint that checked out. */
  checkpoint: { size: number; rootHash: string } | null
  /** Every reason it is not valid, in words. */
  problems: string[]
  /** The blocks whose leaf bytes are their hash, decoded: what a photo can be looked up in (issue 28). */
  blocks: { id: string; content: BlockContent }[]
  /**
   * Issue 29: the witnesses' cosignatures on the checkpoints, per cosigner. Reported only: a cosignature
   * that does not verify is named here and never makes the ledger invalid (docs/decisions/0064).
   */
  cosignatures: CosignatureReport
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null
const isSize = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0

/** The shape of each line, checked before use: a file from anywhere must not crash the verifier. */
function isExportLine(line: unknown): line is ExportLine {
  if (!isObject(line)) return false
  switch (line.type) {
    case 'log':
      return (
        typeof line.origin === 'string' &&
        Array.isArray(line.keys) &&
        line.keys.every((k) => typeof k === 'string') &&
        (line.cosigners === undefined ||
          (Array.isArray(line.cosigners) && line.cosigners.every((k) => typeof k === 'string')))
      )
    case 'block': {
      const kept = (n: unknown) =>
        isObject(n) &&
        (n.name === null || typeof n.name === 'string') &&
        (n.salt === null || typeof n.salt === 'string')
      const base =
        typeof line.id === 'string' &&
        isSize(line.height) &&
        typeof line.hash === 'string' &&
        (line.names === undefined ||
          (isObject(line.names) && SIDES.every((s) => kept((line.names as Record<string, unknown>)[s]))))
      if (line.redacted === undefined) return base && typeof line.leaf === 'string'
      return (
        base &&
        line.leaf === undefined &&
        Array.isArray(line.redacted) &&
        line.redacted.length > 0 &&
        line.redacted.every((s) => s === 'from' || s === 'to') &&
        isObject(line.content)
      )
    }
    case 'checkpoint':
      return isSize(line.size) && typeof line.note === 'string'
    default:
      return false
  }
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
const fromHex = (text: string): Hash => Uint8Array.from(text.match(/../g) ?? [], (pair) => parseInt(pair, 16))
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
const decoder = new TextDecoder()

/**
 * Checks an export offline (issue 14): every leaf's bytes against its hash, the chain links, the Merkle
 * root of every checkpoint, every signature (by `keys`, else by the keys the export names), and, given
 * a checkpoint the reader trusted before, that the log still contains it (no rollback, no fork).
 */
export function verifyExport(
  text: string,
  opts: { keys?: string[]; trusted?: string; cosigners?: string[] } = {},
): ExportVerification {
  const problems: string[] = []
  const lines: ExportLine[] = []
  for (const [n, line] of text.split('\n').entries()) {
    if (!line.trim()) continue
    let parsed: unknown
    try {
      parsed = JSON.parse(line)
    } catch {
      problems.push(`line ${n + 1} is not JSON`)
      continue
    }
    if (isExportLine(parsed)) lines.push(parsed)
    else problems.push(`line ${n + 1} is not a line of a ledger export`)
  }
  const header = lines.find((l) => l.type === 'log')
  let keys: NoteKey[] = []
  try {
    keys = (opts.keys ?? (header?.type === 'log' ? header.keys : [])).map(parseVerifierKey)
  } catch (error) {
    problems.push(`a verifier key is malformed: ${(error as Error).message}`)
  }
  if (keys.length === 0) problems.push('no verifier key to check signatures with')
  const origin = header?.type === 'log' ? header.origin : undefined

  const chain = createChainVerifier()
  const leaves: Hash[] = []
  const decoded: { id: string; content: BlockContent }[] = []
  const blocks = lines.filter((l) => l.type === 'block').sort((a, b) => a.height - b.height)
  for (const block of blocks) {
    if (block.redacted) {
      // Its bytes are gone: the stored hash is taken; the chain checks its links, the tree its place.
      chain.push({ id: block.id, hash: block.hash, content: block.content!, redacted: block.redacted })
      leaves.push(fromHex(block.hash))
      continue
    }
    let content: BlockContent | null = null
    let leaf = new Uint8Array(0)
    try {
      leaf = fromBase64(block.leaf ?? '')
      content = JSON.parse(decoder.decode(leaf)) as BlockContent
      if (!equalHashes(blockBytes(content), leaf))
        problems.push(`block ${block.height}: its leaf is not in canonical form`)
    } catch {
      problems.push(`block ${block.height}: its leaf bytes do not decode`)
    }
    if (hex(leafHash(leaf)) !== block.hash)
      problems.push(`block ${block.height}: its hash is not the hash of its leaf`)
    else if (content) decoded.push({ id: block.id, content })
    chain.push({
      id: block.id,
      hash: block.hash,
      content: content ?? ({} as BlockContent),
      names: block.names,
    })
    leaves.push(fromHex(block.hash))
  }
  const chainResult = chain.result()

  // Every checkpoint's root, from one pass over the leaves (an export has a checkpoint per block).
  const wanted = new Set(lines.flatMap((l) => (l.type === 'checkpoint' ? [l.size] : [])))
  const roots = new Map<number, Hash>([[0, emptyRoot()]])
  let frontier = emptyFrontier()
  for (const leaf of leaves) {
    frontier = appendLeaf(frontier, leaf)
    if (wanted.has(frontier.size) || frontier.size === leaves.length)
      roots.set(frontier.size, frontierRoot(frontier))
  }
  const rootOf = (size: number) => roots.get(size) ?? rootHash(leaves.slice(0, size))
  const check = (note: string, what: string): Checkpoint | null => {
    try {
      const { checkpoint } = openCheckpoint(note, keys, origin)
      if (checkpoint.size > leaves.length)
        problems.push(`${what}: size ${checkpoint.size} is beyond the log's ${leaves.length}`)
      else if (!equalHashes(checkpoint.rootHash, rootOf(checkpoint.size))) {
        problems.push(`${what}: its root is not the root of the first ${checkpoint.size} blocks`)
      } else return checkpoint
    } catch (error) {
      problems.push(`${what}: ${error instanceof NoteError ? error.message : 'unreadable'}`)
    }
    return null
  }
  // Cosignatures: by the keys the reader gave, else those the export names (an older export has none).
  const cosignatures = createCosignatureCheck(
    opts.cosigners ?? (header?.type === 'log' ? (header.cosigners ?? []) : []),
  )
  let newest: Checkpoint | null = null
  for (const line of lines) {
    if (line.type !== 'checkpoint') continue
    cosignatures.add(line.note, `checkpoint ${line.size}`)
    const checkpoint = check(line.note, `checkpoint ${line.size}`)
    if (checkpoint && (!newest || checkpoint.size > newest.size)) newest = checkpoint
  }
  if (leaves.length > 0 && newest?.size !== leaves.length)
    problems.push('no signed checkpoint covers the whole log')
  if (opts.trusted) check(opts.trusted, 'the trusted checkpoint')

  const valid = chainResult.valid && problems.length === 0
  if (!chainResult.valid) problems.push(`${chainResult.failingBlocks.length} block(s) do not check out`)
  return {
    valid,
    blockCount: chainResult.blockCount,
    failingBlocks: chainResult.failingBlocks,
    redactedBlocks: chainResult.redactedBlocks,
    checkpoint: newest ? { size: newest.size, rootHash: hex(newest.rootHash) } : null,
    problems,
    blocks: decoded,
    cosignatures: cosignatures.result(),
  }
}
