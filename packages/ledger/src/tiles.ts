import { type Hash, nodeHash } from './merkle'

/**
 * C2SP tlog-tiles (issue 29): a log's Merkle tree served as tiles of 256 hashes, from which any RFC
 * 6962 proof is built with O(log n) tile reads. A tile at level L holds consecutive tree hashes at height
 * 8·L: level 0 the leaf hashes, level 1 the hashes of full level-0 tiles, and so on. The rightmost tile
 * of a level is partial (1–255 hashes) for a tree whose size is not a multiple; it is never hashed into
 * the level above. Paths: `tile/<L>/<N>[.p/<W>]`, and `tile/entries/<N>[.p/<W>]` for the entry bundles,
 * with N in 3-digit groups, all but the last prefixed `x` (1234067 → x001/x234/067).
 */
export const TILE_HEIGHT = 8
export const TILE_WIDTH = 1 << TILE_HEIGHT
/** Bytes of one SHA-256 hash in a tile. */
export const HASH_SIZE = 32

/** A tile: its level (`'entries'` for an entry bundle), its index in the level, its width (1–256). */
export interface Tile {
  level: number | 'entries'
  index: number
  width: number
}

/** The path of a tile below the log's prefix. */
export function tilePath(tile: Tile): string {
  let n = tile.index
  let digits = String(n % 1000).padStart(3, '0')
  while (n >= 1000) {
    n = Math.floor(n / 1000)
    digits = `x${String(n % 1000).padStart(3, '0')}/${digits}`
  }
  const partial = tile.width === TILE_WIDTH ? '' : `.p/${tile.width}`
  return `tile/${tile.level}/${digits}${partial}`
}

const GROUP = /^x?\d{3}$/

/** The tile a path names, or null for anything that is not exactly a tile path. */
export function parseTilePath(path: string): Tile | null {
  const parts = path.split('/')
  if (parts.length < 3 || parts[0] !== 'tile') return null
  const levelText = parts[1]!
  let level: number | 'entries'
  if (levelText === 'entries') level = 'entries'
  else if (/^(0|[1-9]\d?)$/.test(levelText) && Number(levelText) <= 63) level = Number(levelText)
  else return null
  let rest = parts.slice(2)
  let width = TILE_WIDTH
  const last = rest.at(-2)
  if (last?.endsWith('.p')) {
    const w = rest.at(-1)!
    if (!/^[1-9]\d{0,2}$/.test(w) || Number(w) >= TILE_WIDTH) return null
    width = Number(w)
    rest = [...rest.slice(0, -2), last.slice(0, -2)]
  }
  if (!rest.every(GROUP.test.bind(GROUP))) return null
  let index = 0
  for (const group of rest) index = index * 1000 + Number(group.replace('x', ''))
  if (!Number.isSafeInteger(index)) return null
  const tile = { level, index, width }
  return tilePath(tile) === path ? tile : null
}

/** How many hashes level `level` has in a tree of `size` leaves: ⌊size / 256^level⌋. */
const levelSize = (level: number, size: number) => Math.floor(size / TILE_WIDTH ** level)

/**
 * The tiles a tree of `newSize` has that a tree of `oldSize` did not (new or wider): what an append
 * writes. Entry bundles follow the level-0 tiles.
 */
export function newTiles(oldSize: number, newSize: number): Tile[] {
  const tiles: Tile[] = []
  for (let level = 0; levelSize(level, newSize) > 0; level++) {
    const [from, to] = [levelSize(level, oldSize), levelSize(level, newSize)]
    if (from === to) continue
    for (let n = Math.floor(from / TILE_WIDTH); n * TILE_WIDTH < to; n++) {
      const width = Math.min(TILE_WIDTH, to - n * TILE_WIDTH)
      tiles.push({ level, index: n, width })
      if (level === 0) tiles.push({ level: 'entries', index: n, width })
    }
  }
  return tiles
}

/** The tile of a tree of `size` leaves holding hash `index` of level `level` (full, or the partial edge). */
export function tileFor(level: number, index: number, size: number): Tile {
  const n = Math.floor(index / TILE_WIDTH)
  return { level, index: n, width: Math.min(TILE_WIDTH, levelSize(level, size) - n * TILE_WIDTH) }
}

/** Hashes `data` (2^k concatenated hashes) to the root of the complete subtree they are the leaves of. */
function subtreeOf(data: Uint8Array, from: number, count: number): Hash {
  if (count === 1) return data.slice(from * HASH_SIZE, (from + 1) * HASH_SIZE)
  const half = count / 2
  return nodeHash(subtreeOf(data, from, half), subtreeOf(data, from + half, half))
}

/** The largest power of two smaller than `n` (n ≥ 2). */
const split = (n: number) => 2 ** Math.floor(Math.log2(n - 1))

/** A range of leaves `[lo, hi)` whose Merkle Tree Hash a proof needs. */
type Range = readonly [lo: number, hi: number]

/** RFC 6962 §2.1.1 PATH(m, D[lo:hi]) as the ranges whose hashes make it, leaf to root. */
function inclusionRanges(m: number, lo: number, hi: number): Range[] {
  if (hi - lo <= 1) return []
  const k = split(hi - lo)
  return m < k
    ? [...inclusionRanges(m, lo, lo + k), [lo + k, hi]]
    : [...inclusionRanges(m - k, lo + k, hi), [lo, lo + k]]
}

/** RFC 6962 §2.1.2 SUBPROOF(m, D[lo:hi], b) as ranges. */
function consistencyRanges(m: number, lo: number, hi: number, whole: boolean): Range[] {
  const n = hi - lo
  if (m === n) return whole ? [] : [[lo, hi]]
  const k = split(n)
  return m <= k
    ? [...consistencyRanges(m, lo, lo + k, whole), [lo + k, hi]]
    : [...consistencyRanges(m - k, lo + k, hi, false), [lo, lo + k]]
}

/** The aligned complete subtrees whose hashes make MTH(D[lo:hi]), as (height, index) pairs. */
function blocksOf(lo: number, hi: number): [height: number, index: number][] {
  const n = hi - lo
  if ((n & (n - 1)) === 0) {
    const height = Math.log2(n)
    return [[height, lo / n]]
  }
  const k = split(n)
  return [...blocksOf(lo, lo + k), ...blocksOf(lo + k, hi)]
}

/** Where a complete subtree's hash is read from: its tile, and the run of hashes in it. */
function locate(height: number, index: number, size: number) {
  const level = Math.floor(height / TILE_HEIGHT)
  const within = height - level * TILE_HEIGHT
  const first = index * 2 ** within
  return { tile: tileFor(level, first, size), offset: first % TILE_WIDTH, count: 2 ** within }
}

const keyOf = (tile: Tile) => tilePath(tile)

/** Reads tiles (their bytes: `width` × 32); a wrong length is refused by the caller. */
export type TileReader = (tiles: Tile[]) => Promise<Uint8Array[]>

/**
 * A tree of `size` leaves read from tiles: the hashes of any ranges, fetched in one batch of tiles per
 * call. Tiles are not trusted: `root()` (or a proof checked against a signed checkpoint) is what
 * authenticates them.
 */
export function tiledTree(size: number, read: TileReader) {
  if (!Number.isSafeInteger(size) || size < 1) throw new RangeError('a tiled tree has at least one leaf')

  async function hashes(ranges: readonly Range[]): Promise<Hash[]> {
    const plans = ranges.map(([lo, hi]) => blocksOf(lo, hi).map(([h, i]) => locate(h, i, size)))
    const wanted = new Map<string, Tile>()
    for (const plan of plans) for (const { tile } of plan) wanted.set(keyOf(tile), tile)
    const tiles = [...wanted.values()]
    const data = await read(tiles)
    const byKey = new Map<string, Uint8Array>()
    tiles.forEach((tile, i) => {
      const bytes = data[i]
      if (!bytes || bytes.length !== tile.width * HASH_SIZE)
        throw new Error(
          `tile ${tilePath(tile)} has ${bytes?.length ?? 0} bytes, not ${tile.width * HASH_SIZE}`,
        )
      byKey.set(keyOf(tile), bytes)
    })
    // Proofs of one batch share most of their subtrees (a page's leaves lie in few tiles): each is
    // hashed once per batch.
    const memo = new Map<string, Hash>()
    const subtree = (key: string, data: Uint8Array, from: number, count: number): Hash => {
      if (count === 1) return data.slice(from * HASH_SIZE, (from + 1) * HASH_SIZE)
      const id = `${key}@${from}+${count}`
      let hash = memo.get(id)
      if (!hash) {
        const half = count / 2
        hash = nodeHash(subtree(key, data, from, half), subtree(key, data, from + half, half))
        memo.set(id, hash)
      }
      return hash
    }
    return plans.map((plan) => {
      const parts = plan.map(({ tile, offset, count }) =>
        subtree(keyOf(tile), byKey.get(keyOf(tile))!, offset, count),
      )
      // RFC 6962 combines the left part with the right part's hash: right to left.
      let hash = parts.at(-1)!
      for (let i = parts.length - 2; i >= 0; i--) hash = nodeHash(parts[i]!, hash)
      return hash
    })
  }

  return {
    size,
    /** The tree's root hash. */
    async root(): Promise<Hash> {
      return (await hashes([[0, size]]))[0]!
    },
    /** RFC 6962 audit path of leaf `index`, leaf to root. */
    inclusionProof(index: number): Promise<Hash[]> {
      if (!Number.isSafeInteger(index) || index < 0 || index >= size)
        throw new RangeError('index out of range')
      return hashes(inclusionRanges(index, 0, size))
    },
    /** RFC 6962 proof that the tree of `from` leaves is a prefix of this one. */
    consistencyProof(from: number): Promise<Hash[]> {
      if (!Number.isSafeInteger(from) || from < 1 || from > size) throw new RangeError('size out of range')
      return hashes(consistencyRanges(from, 0, size, true))
    },
    /** Several leaves' hashes with their audit paths, from one batch of tiles (a page of blocks). */
    async inclusionProofs(indexes: readonly number[]): Promise<{ leaf: Hash; proof: Hash[] }[]> {
      for (const index of indexes)
        if (!Number.isSafeInteger(index) || index < 0 || index >= size)
          throw new RangeError('index out of range')
      const plans = indexes.map((index) => [[index, index + 1] as const, ...inclusionRanges(index, 0, size)])
      const all = await hashes(plans.flat())
      let at = 0
      return plans.map((plan) => {
        const [leaf, ...proof] = all.slice(at, (at += plan.length))
        return { leaf: leaf!, proof }
      })
    },
  }
}

/** The hash a full tile contributes to the level above: the root of the 256 hashes it holds. */
export function fullTileHash(data: Uint8Array): Hash {
  if (data.length !== TILE_WIDTH * HASH_SIZE) throw new RangeError('not a full tile')
  return subtreeOf(data, 0, TILE_WIDTH)
}

/**
 * Every hash tile of a tree of these leaves, level by level (each full tile's hash feeding the level
 * above): O(n) hashes. For a log whose tiles were never written; appends keep them with `fullTileHash`.
 */
export function buildTiles(leaves: readonly Hash[]): { tile: Tile; data: Uint8Array }[] {
  const built: { tile: Tile; data: Uint8Array }[] = []
  let hashes: readonly Hash[] = leaves
  for (let level = 0; hashes.length > 0; level++) {
    const above: Hash[] = []
    for (let index = 0; index * TILE_WIDTH < hashes.length; index++) {
      const part = hashes.slice(index * TILE_WIDTH, (index + 1) * TILE_WIDTH)
      const data = new Uint8Array(part.length * HASH_SIZE)
      part.forEach((hash, i) => data.set(hash, i * HASH_SIZE))
      built.push({ tile: { level, index, width: part.length }, data })
      if (part.length === TILE_WIDTH) above.push(fullTileHash(data))
    }
    hashes = above
  }
  return built
}

/**
 * The bytes of a hash tile of a tree, from its leaf hashes (the server's writer and the tests): the
 * hashes at height 8·level, `width` of them from `index`·256.
 */
export function tileBytes(leaves: readonly Hash[], tile: Tile): Uint8Array {
  if (tile.level === 'entries') throw new TypeError('an entry bundle holds entries, not hashes')
  const span = TILE_WIDTH ** tile.level
  const out = new Uint8Array(tile.width * HASH_SIZE)
  for (let i = 0; i < tile.width; i++) {
    const first = (tile.index * TILE_WIDTH + i) * span
    out.set(completeSubtree(leaves, first, span), i * HASH_SIZE)
  }
  return out
}

function completeSubtree(leaves: readonly Hash[], from: number, count: number): Hash {
  if (count === 1) return leaves[from]!
  const half = count / 2
  return nodeHash(completeSubtree(leaves, from, half), completeSubtree(leaves, from + half, half))
}

/** An entry bundle: each entry as a big-endian uint16 length and its bytes. */
export function entryBundle(entries: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(entries.reduce((n, e) => n + 2 + e.length, 0))
  let at = 0
  for (const entry of entries) {
    if (entry.length > 0xffff) throw new RangeError('an entry is at most 65535 bytes')
    out[at] = entry.length >> 8
    out[at + 1] = entry.length & 0xff
    out.set(entry, at + 2)
    at += 2 + entry.length
  }
  return out
}

/** The entries of a bundle; null when its bytes are not a sequence of length-prefixed entries. */
export function readEntryBundle(bytes: Uint8Array): Uint8Array[] | null {
  const entries: Uint8Array[] = []
  let at = 0
  while (at < bytes.length) {
    if (at + 2 > bytes.length) return null
    const length = (bytes[at]! << 8) | bytes[at + 1]!
    if (at + 2 + length > bytes.length) return null
    entries.push(bytes.slice(at + 2, at + 2 + length))
    at += 2 + length
  }
  return entries
}
