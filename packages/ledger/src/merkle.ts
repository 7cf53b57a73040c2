import { sha256 } from '#sha256'
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js'

/**
 * The RFC 6962 / RFC 9162 Merkle tree over the ledger's block hashes: leaf = SHA-256(0x00 || bytes),
 * node = SHA-256(0x01 || left || right), empty tree = SHA-256(""). Pure and synchronous, so the server,
 * the browser and a command-line verifier compute the same bytes. Checked against the transparency-dev
 * test vectors (testdata/rfc6962, Apache-2.0).
 */

export type Hash = Uint8Array

const LEAF_PREFIX = Uint8Array.of(0)
const NODE_PREFIX = Uint8Array.of(1)

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

export const emptyRoot = (): Hash => sha256(new Uint8Array(0))
export const leafHash = (leaf: Uint8Array): Hash => sha256(concat(LEAF_PREFIX, leaf))
export const nodeHash = (left: Hash, right: Hash): Hash => sha256(concat(NODE_PREFIX, left, right))

/** A hash in the lowercase hex the API and the database use. */
export const hashToHex = (hash: Uint8Array): string => bytesToHex(hash)

/** Hex to bytes; text that is not hex gives an empty hash, which no proof check accepts. */
export function hexToHash(hex: string): Hash {
  try {
    return hexToBytes(hex)
  } catch {
    return new Uint8Array(0)
  }
}

export function equalHashes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!
  return difference === 0
}

/** The largest power of two smaller than n (n > 1). */
function split(n: number): number {
  let k = 1
  while (k * 2 < n) k *= 2
  return k
}

/**
 * The RFC 6962 tree over `leaves` (§2.1): roots, audit paths and consistency proofs for any size up to
 * `leaves.length`. Subtree hashes are kept once computed, so many proofs of one tree cost one pass over
 * the leaves and a logarithmic walk each, not a pass each.
 */
export function merkleTree(leaves: readonly Hash[]) {
  const known = new Map<string, Hash>()
  /** MTH of the `n` leaves from `start`. */
  const range = (start: number, n: number): Hash => {
    if (n === 1) return leaves[start]!
    const key = `${start}:${n}`
    let hash = known.get(key)
    if (!hash) {
      const k = split(n)
      hash = nodeHash(range(start, k), range(start + k, n - k))
      known.set(key, hash)
    }
    return hash
  }
  const path = (m: number, start: number, n: number): Hash[] => {
    if (n === 1) return []
    const k = split(n)
    return m < k
      ? [...path(m, start, k), range(start + k, n - k)]
      : [...path(m - k, start + k, n - k), range(start, k)]
  }
  const subproof = (m: number, start: number, n: number, complete: boolean): Hash[] => {
    if (m === n) return complete ? [] : [range(start, n)]
    const k = split(n)
    return m <= k
      ? [...subproof(m, start, k, complete), range(start + k, n - k)]
      : [...subproof(m - k, start + k, n - k, false), range(start, k)]
  }
  const checkSize = (size: number) => {
    if (!Number.isInteger(size) || size < 0 || size > leaves.length) {
      throw new RangeError(`no tree of ${size} in ${leaves.length} leaves`)
    }
  }
  return {
    /** MTH(D[size]). */
    root(size = leaves.length): Hash {
      checkSize(size)
      return size === 0 ? emptyRoot() : range(0, size)
    },
    /** PATH(index, D[size]): the audit path of leaf `index` (RFC 6962 §2.1.1). */
    inclusionProof(index: number, size = leaves.length): Hash[] {
      checkSize(size)
      if (!Number.isInteger(index) || index < 0 || index >= size) {
        throw new RangeError(`leaf ${index} is not in a tree of ${size}`)
      }
      return path(index, 0, size)
    },
    /** PROOF(from, D[size]): that the first `from` leaves are a prefix of the first `size` (§2.1.2). */
    consistencyProof(from: number, size = leaves.length): Hash[] {
      checkSize(size)
      if (!Number.isInteger(from) || from < 1 || from > size) {
        throw new RangeError(`no consistency proof from ${from} to ${size}`)
      }
      return subproof(from, 0, size, true)
    },
  }
}

/** MTH(D[n]) over leaf hashes (RFC 6962 §2.1). */
export const rootHash = (leaves: readonly Hash[]): Hash => merkleTree(leaves).root()

/** PATH(m, D[n]): the audit path of leaf `index` (RFC 6962 §2.1.1). */
export const inclusionProof = (index: number, leaves: readonly Hash[]): Hash[] =>
  merkleTree(leaves).inclusionProof(index)

/** PROOF(m, D[n]): that the first `size` leaves are a prefix of all of them (RFC 6962 §2.1.2). */
export const consistencyProof = (size: number, leaves: readonly Hash[]): Hash[] =>
  merkleTree(leaves).consistencyProof(size)

const isOdd = (n: number) => n % 2 === 1
// Not with bitwise operators: they cut numbers to 32 bits, and a chain may outgrow that.
const isPowerOfTwo = (n: number) => n > 0 && 2 ** Math.round(Math.log2(n)) === n
const half = (n: number) => Math.floor(n / 2)

/**
 * The walk both verifications share (RFC 9162 §2.1.3.2 and §2.1.4.2): from node `fn` in a tree whose
 * last node is `sn`, for each of `count` proof hashes whether it joins on the left. Null when the proof
 * does not fit the tree (too long, or too short to reach the root).
 */
function proofSides(fn: number, sn: number, count: number): boolean[] | null {
  const sides: boolean[] = []
  for (let i = 0; i < count; i++) {
    if (sn === 0) return null
    const left = isOdd(fn) || fn === sn
    sides.push(left)
    if (left && !isOdd(fn)) {
      do {
        fn = half(fn)
        sn = half(sn)
      } while (!isOdd(fn) && fn !== 0)
    }
    fn = half(fn)
    sn = half(sn)
  }
  return sn === 0 ? sides : null
}

/** Whether `proof` shows leaf `index` with hash `leaf` in the tree of `size` with `root` (RFC 9162 §2.1.3.2). */
export function verifyInclusion(
  index: number,
  size: number,
  leaf: Hash,
  proof: readonly Hash[],
  root: Hash,
): boolean {
  if (!Number.isInteger(index) || !Number.isInteger(size) || index < 0 || index >= size) return false
  if (leaf.length !== 32 || root.length !== 32 || proof.some((hash) => hash.length !== 32)) return false
  const sides = proofSides(index, size - 1, proof.length)
  if (!sides) return false
  const computed = proof.reduce((r, p, i) => (sides[i] ? nodeHash(p, r) : nodeHash(r, p)), leaf)
  return equalHashes(computed, root)
}

/**
 * Audit paths of many leaves of one signed tree checked together, with the hashing the paths share done
 * once: a walk up from a leaf ends at the first node that an earlier, verified walk passed (its hashes
 * above that node were shown to make the root), and holds when it computed the same hash for that node.
 * What it answers is what `verifyInclusion` is used for: whether the leaf is the tree's leaf at `index`.
 * A true answer means an audit path that makes the root exists for it (the proof's lower hashes with an
 * earlier path's upper ones); a false one, that this proof does not make the root (a path reaching a
 * proven node with another hash could not, short of a SHA-256 collision). It may say true where
 * `verifyInclusion` says false only for a proof whose unused upper hashes are wrong. The newest blocks of
 * a ledger page share all but their lowest levels: 50 paths cost about 130 hashes instead of 1,000.
 */
export function inclusionVerifier(size: number, root: Hash) {
  /** Hashes of nodes on verified paths, by `${first leaf}:${end}`. */
  const proven = new Map<string, Hash>()
  return function verify(index: number, leaf: Hash, proof: readonly Hash[]): boolean {
    if (!Number.isInteger(index) || !Number.isInteger(size) || index < 0 || index >= size) return false
    if (leaf.length !== 32 || root.length !== 32 || proof.some((hash) => hash.length !== 32)) return false
    const sides = proofSides(index, size - 1, proof.length)
    if (!sides) return false
    const walked: [string, Hash][] = []
    const holds = (known: Hash, hash: Hash) => {
      const equal = equalHashes(known, hash)
      if (equal) for (const [node, h] of walked) proven.set(node, h)
      return equal
    }
    // The node the walk is at spans leaves [fn·2^level, min((fn+1)·2^level, size)), walking as
    // proofSides does (a last node without a sibling is carried up unchanged).
    let [fn, level, hash] = [index, 0, leaf]
    for (let i = 0; i < proof.length; i++) {
      const span = 2 ** level
      const node = `${fn * span}:${Math.min((fn + 1) * span, size)}`
      const known = proven.get(node)
      if (known) return holds(known, hash)
      walked.push([node, hash])
      hash = sides[i] ? nodeHash(proof[i]!, hash) : nodeHash(hash, proof[i]!)
      if (sides[i] && !isOdd(fn)) {
        do {
          fn = half(fn)
          level++
        } while (!isOdd(fn) && fn !== 0)
      }
      fn = half(fn)
      level++
    }
    return holds(root, hash)
  }
}

/**
 * Whether `proof` shows the tree of `size1` with `root1` to be a prefix of the tree of `size2` with
 * `root2` (RFC 9162 §2.1.4.2). A check from the empty tree proves nothing and is refused.
 */
export function verifyConsistency(
  size1: number,
  size2: number,
  root1: Hash,
  root2: Hash,
  proof: readonly Hash[],
): boolean {
  if (!Number.isInteger(size1) || !Number.isInteger(size2) || size1 < 1 || size2 < size1) return false
  // Equal trees: nothing to prove, the two roots must simply be the same bytes.
  if (size1 === size2) return proof.length === 0 && equalHashes(root1, root2)
  if (root1.length !== 32 || root2.length !== 32 || proof.some((hash) => hash.length !== 32)) return false
  if (proof.length === 0) return false
  const path = isPowerOfTwo(size1) ? [root1, ...proof] : [...proof]
  // Start at the last node of the first tree that is a right child (or the root of a full subtree).
  let fn = size1 - 1
  let sn = size2 - 1
  while (isOdd(fn)) {
    fn = half(fn)
    sn = half(sn)
  }
  const rest = path.slice(1)
  const sides = proofSides(fn, sn, rest.length)
  if (!sides) return false
  let fr = path[0]!
  let sr = path[0]!
  rest.forEach((c, i) => {
    if (sides[i]) {
      fr = nodeHash(c, fr)
      sr = nodeHash(c, sr)
    } else {
      sr = nodeHash(sr, c)
    }
  })
  return equalHashes(fr, root1) && equalHashes(sr, root2)
}

/**
 * A tree's frontier: the roots of the perfect subtrees it is made of, largest first (one per set bit
 * of its size). Appending a leaf and computing the root need only these, so the server keeps them on
 * the circle's ledger head instead of reading every block (issue 14).
 */
export interface Frontier {
  size: number
  nodes: Hash[]
}

export const emptyFrontier = (): Frontier => ({ size: 0, nodes: [] })

export function appendLeaf(frontier: Frontier, leaf: Hash): Frontier {
  const nodes = [...frontier.nodes]
  let node = leaf
  // Each trailing 1 bit of the old size is a subtree of the new leaf's size: merge them.
  for (let size = frontier.size; isOdd(size); size = half(size)) node = nodeHash(nodes.pop()!, node)
  nodes.push(node)
  return { size: frontier.size + 1, nodes }
}

export function frontierRoot(frontier: Frontier): Hash {
  if (frontier.size === 0) return emptyRoot()
  return frontier.nodes.reduceRight((right, left) => nodeHash(left, right))
}
