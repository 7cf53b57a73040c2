import { describe, expect, it } from 'vitest'
import {
  consistencyProof,
  type Hash,
  inclusionProof,
  leafHash,
  merkleTree,
  nodeHash,
  rootHash,
} from './merkle'
import {
  buildTiles,
  entryBundle,
  newTiles,
  parseTilePath,
  readEntryBundle,
  type Tile,
  tileBytes,
  tiledTree,
  tilePath,
  TILE_WIDTH,
} from './tiles'

const leavesOf = (size: number): Hash[] =>
  Array.from({ length: size }, (_, i) => leafHash(new TextEncoder().encode(`entry ${i}`)))

/** A tile reader over a tree's leaves, counting what it is asked for. */
function reader(leaves: Hash[]) {
  const asked: Tile[][] = []
  const read = (tiles: Tile[]) => {
    asked.push(tiles)
    return Promise.resolve(tiles.map((tile) => tileBytes(leaves, tile)))
  }
  return { read, asked }
}

/**
 * The same, for any prefix of one long tree: a complete subtree's hash is the same in every tree that
 * holds it, so each height is hashed once (tileBytes rehashes a level-1 tile's 65,536 leaves per read).
 */
function prefixReader(leaves: Hash[]) {
  const heights: Hash[][] = [leaves]
  for (let h = 1; h <= 16; h++) {
    const below = heights[h - 1]!
    heights.push(
      Array.from({ length: below.length >> 1 }, (_, i) => nodeHash(below[2 * i]!, below[2 * i + 1]!)),
    )
  }
  return (size: number) => {
    const asked: Tile[][] = []
    const read = (tiles: Tile[]) => {
      asked.push(tiles)
      return Promise.resolve(
        tiles.map((tile) => {
          const level = tile.level as number
          const out = new Uint8Array(tile.width * 32)
          for (let i = 0; i < tile.width; i++)
            out.set(heights[8 * level]![tile.index * TILE_WIDTH + i]!, i * 32)
          // Only hashes the prefix holds: a partial tile of this size is never wider.
          if ((tile.index * TILE_WIDTH + tile.width) * TILE_WIDTH ** level > size)
            throw new Error('beyond the tree')
          return out
        }),
      )
    }
    return { read, asked }
  }
}
const hex = (hashes: Hash[]) => hashes.map((h) => Buffer.from(h).toString('hex'))

describe('tile paths (C2SP tlog-tiles)', () => {
  it('encodes the index in 3-digit groups, all but the last with x, and the partial width', () => {
    expect(tilePath({ level: 0, index: 0, width: 256 })).toBe('tile/0/000')
    expect(tilePath({ level: 1, index: 1234067, width: 256 })).toBe('tile/1/x001/x234/067')
    expect(tilePath({ level: 2, index: 1000, width: 17 })).toBe('tile/2/x001/000.p/17')
    expect(tilePath({ level: 'entries', index: 5, width: 1 })).toBe('tile/entries/005.p/1')
  })

  it('parses exactly the paths it writes and nothing else', () => {
    for (const tile of [
      { level: 0, index: 0, width: 256 },
      { level: 3, index: 1234067, width: 255 },
      { level: 'entries' as const, index: 999, width: 256 },
      { level: 63, index: 1000000, width: 1 },
    ])
      expect(parseTilePath(tilePath(tile))).toEqual(tile)
    for (const bad of [
      'tile/0/1',
      'tile/00/000',
      'tile/64/000',
      'tile/0/x000/000',
      'tile/0/000.p/256',
      'tile/0/000.p/0',
      'tile/0/000.p/07',
      'tile/0/001/002',
      'tile/-1/000',
      'tile/data/000',
      'tiles/0/000',
      'tile/0/000/',
    ])
      expect(parseTilePath(bad), bad).toBeNull()
  })
})

describe('which tiles a tree has', () => {
  it('a tree of 70,000 entries: 273 full and one 112 wide at level 0, one full and one 17 wide at 1, one 1 wide at 2', () => {
    const tiles = newTiles(0, 70_000)
    const at = (level: number | 'entries') => tiles.filter((t) => t.level === level)
    expect(at(0)).toHaveLength(274)
    expect(at(0).filter((t) => t.width === TILE_WIDTH)).toHaveLength(273)
    expect(at(0).at(-1)).toEqual({ level: 0, index: 273, width: 112 })
    expect(at('entries')).toHaveLength(274)
    expect(at(1)).toEqual([
      { level: 1, index: 0, width: 256 },
      { level: 1, index: 1, width: 17 },
    ])
    expect(at(2)).toEqual([{ level: 2, index: 0, width: 1 }])
    expect(newTiles(0, 256).filter((t) => t.level !== 'entries')).toEqual([
      { level: 0, index: 0, width: 256 },
      { level: 1, index: 0, width: 1 },
    ])
  })

  it('buildTiles writes every hash tile of a tree, as tileBytes reads them', () => {
    const leaves = leavesOf(70_000)
    const built = buildTiles(leaves)
    expect(built.map((b) => b.tile)).toEqual(newTiles(0, 70_000).filter((t) => t.level !== 'entries'))
    for (const { tile, data } of built.filter((b) => b.tile.level !== 0 || b.tile.index % 50 === 0))
      expect(Buffer.from(data).equals(Buffer.from(tileBytes(leaves, tile))), tilePath(tile)).toBe(true)
  })

  it('an append writes only the tiles that are new or wider', () => {
    expect(newTiles(255, 256).map(tilePath)).toEqual(['tile/0/000', 'tile/entries/000', 'tile/1/000.p/1'])
    expect(newTiles(256, 257).map(tilePath)).toEqual(['tile/0/001.p/1', 'tile/entries/001.p/1'])
    expect(newTiles(10, 10)).toEqual([])
  })
})

describe('proofs from tiles equal RFC 6962 proofs', () => {
  it('for every index and earlier size of small trees', async () => {
    for (const size of [1, 2, 3, 7, 8, 9, 255, 256, 257, 300]) {
      const leaves = leavesOf(size)
      const tree = tiledTree(size, reader(leaves).read)
      expect(hex([await tree.root()])).toEqual(hex([rootHash(leaves)]))
      for (const index of new Set([0, 1, size >> 1, size - 2, size - 1].filter((i) => i >= 0 && i < size)))
        expect(hex(await tree.inclusionProof(index)), `${index}/${size}`).toEqual(
          hex(inclusionProof(index, leaves)),
        )
      for (const from of new Set([1, 2, size >> 1, size - 1, size].filter((m) => m >= 1 && m <= size)))
        expect(hex(await tree.consistencyProof(from)), `${from}/${size}`).toEqual(
          hex(consistencyProof(from, leaves)),
        )
    }
  })

  it('for random sizes, indexes and earlier sizes (fast-check), in one batch of tiles each', async () => {
    const fc = await import('fast-check')
    const leaves = leavesOf(70_000)
    const readerFor = prefixReader(leaves)
    // The tiles of a few sizes agree with tileBytes, which the other tests read.
    for (const size of [257, 65_537])
      for (const tile of newTiles(0, size).filter((t) => t.level !== 'entries'))
        if (tile.level !== 0 || tile.index % 64 === 0)
          expect(hex([(await readerFor(size).read([tile]))[0]!])).toEqual(
            hex([tileBytes(leaves.slice(0, size), tile)]),
          )
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 70_000 }),
        fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (size, at, earlier) => {
          const prefix = leaves.slice(0, size)
          const source = readerFor(size)
          const tree = tiledTree(size, source.read)
          const index = Math.floor(at * size)
          const from = Math.max(1, Math.ceil(earlier * size))
          const reference = merkleTree(prefix)
          expect(hex(await tree.inclusionProof(index))).toEqual(hex(reference.inclusionProof(index)))
          expect(hex(await tree.consistencyProof(from))).toEqual(hex(reference.consistencyProof(from)))
          // O(log n): one read per proof, a handful of tiles.
          expect(source.asked).toHaveLength(2)
          for (const tiles of source.asked) expect(tiles.length).toBeLessThanOrEqual(8)
        },
      ),
      { numRuns: 25 },
    )
  }, 60_000)

  it('gives several audit paths with their leaves from one batch of tiles', async () => {
    const leaves = leavesOf(600)
    const source = reader(leaves)
    const tree = tiledTree(600, source.read)
    const indexes = [0, 255, 256, 599, 300]
    const proofs = await tree.inclusionProofs(indexes)
    expect(proofs.map((p) => hex(p.proof))).toEqual(indexes.map((i) => hex(inclusionProof(i, leaves))))
    expect(proofs.map((p) => hex([p.leaf])[0])).toEqual(indexes.map((i) => hex([leaves[i]!])[0]))
    expect(source.asked).toHaveLength(1)
  })

  it('refuses a tile of the wrong length', async () => {
    const tree = tiledTree(10, (tiles) => Promise.resolve(tiles.map(() => new Uint8Array(32))))
    await expect(tree.root()).rejects.toThrow(/has 32 bytes, not 320/)
  })
})

describe('entry bundles', () => {
  it('hold each entry with its big-endian uint16 length, and read back', () => {
    const entries = [new Uint8Array([1, 2, 3]), new Uint8Array(0), new Uint8Array(300).fill(7)]
    const bundle = entryBundle(entries)
    expect([...bundle.slice(0, 5)]).toEqual([0, 3, 1, 2, 3])
    expect(bundle.length).toBe(2 + 3 + 2 + 2 + 300)
    expect(readEntryBundle(bundle)).toEqual(entries)
    expect(readEntryBundle(bundle.slice(0, -1))).toBeNull()
    expect(readEntryBundle(new Uint8Array([0]))).toBeNull()
  })
})
