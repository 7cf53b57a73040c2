import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { consistencyProof, type Hash, inclusionProof, leafHash, merkleTree } from './merkle'
import { authenticatedTiles, partialTiles, type TileData, TileMismatchError } from './tile-authentication'
import { type Tile, tileBytes, tiledTree, tilePath } from './tiles'

const leavesOf = (size: number): Hash[] =>
  Array.from({ length: size }, (_, i) => leafHash(new TextEncoder().encode(`entry ${i}`)))
const hex = (hashes: Hash[]) => hashes.map((h) => Buffer.from(h).toString('hex'))

/** A server's tiles of these leaves, with one tile's bytes changed when `tamper` names its path. */
function server(leaves: Hash[], tamper?: string) {
  const asked: string[] = []
  const read = (tiles: Tile[]) => {
    asked.push(...tiles.map(tilePath))
    return Promise.resolve(
      tiles.map((tile) => {
        const bytes = tileBytes(leaves, tile)
        if (tilePath(tile) === tamper) bytes[5]! ^= 1
        return bytes
      }),
    )
  }
  return { read, asked }
}

/** The tree of `size` leaves read through the authentication, remembering what it let through. */
function authenticated(leaves: Hash[], size: number, tamper?: string, root = merkleTree(leaves).root(size)) {
  const kept: TileData[] = []
  const { read, asked } = server(leaves, tamper)
  const tree = tiledTree(
    size,
    authenticatedTiles(size, root, read, (full) => void kept.push(...full)),
  )
  return { tree, kept, asked }
}

describe('tiles authenticated against the signed tree (as sumdb/tlog TileHashReader)', () => {
  it('names the partial tiles of a tree: the ones whose hashes make its root', () => {
    expect(partialTiles(3).map(tilePath)).toEqual(['tile/0/000.p/3'])
    expect(partialTiles(256).map(tilePath)).toEqual(['tile/1/000.p/1'])
    expect(partialTiles(256 * 3 + 5).map(tilePath)).toEqual(['tile/0/003.p/5', 'tile/1/000.p/3'])
    expect(partialTiles(65_536).map(tilePath)).toEqual(['tile/2/000.p/1'])
  })

  it('builds the RFC 6962 proofs of random trees from tiles it checked, and hands on only tiles of the tree', async () => {
    const leaves = leavesOf(1400)
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1400 }),
        fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        async (size, at) => {
          const index = Math.floor(at * size)
          const { tree, kept } = authenticated(leaves, size)
          const [path] = await tree.inclusionProofs([index])
          expect(hex(path!.proof)).toEqual(hex(inclusionProof(index, leaves.slice(0, size))))
          const from = index + 1
          expect(hex(await tree.consistencyProof(from))).toEqual(
            hex(consistencyProof(from, leaves.slice(0, size))),
          )
          // Full tiles, and the tree's own partial tiles (the one of each level that the root needs).
          const partial = new Set(partialTiles(size).map(tilePath))
          expect(kept.every(({ tile }) => tile.width === 256 || partial.has(tilePath(tile)))).toBe(true)
        },
      ),
      { numRuns: 40 },
    )
  })

  it('checks a full level-1 tile against the level-2 tile above it (three levels)', async () => {
    const leaves = leavesOf(65_536 + 300)
    const { tree, kept } = authenticated(leaves, leaves.length)
    const [path] = await tree.inclusionProofs([5])
    expect(hex(path!.proof)).toEqual(hex(inclusionProof(5, leaves)))
    expect(kept.map(({ tile }) => tilePath(tile)).sort()).toEqual([
      'tile/0/000',
      'tile/0/257.p/44',
      'tile/1/000',
      'tile/1/001.p/1',
      'tile/2/000.p/1',
    ])
    const tampered = authenticated(leaves, leaves.length, 'tile/1/000')
    await expect(tampered.tree.inclusionProofs([5])).rejects.toBeInstanceOf(TileMismatchError)
    // Three levels need 65,836 leaves, hashed into tiles twice and into the RFC 6962 proof: about a
    // second alone, several on a loaded 2-core machine.
  }, 30_000)

  it('refuses a changed tile anywhere in the batch, and keeps nothing of it', async () => {
    const leaves = leavesOf(256 * 3 + 10)
    const size = leaves.length
    // A full level-0 tile (checked against the level-1 tile), a partial one (against the root), the
    // level-1 tile itself.
    for (const tamper of ['tile/0/001', 'tile/0/003.p/10', 'tile/1/000.p/3']) {
      const { tree, kept } = authenticated(leaves, size, tamper)
      const failure = await tree.inclusionProofs([300]).catch((error: unknown) => error)
      expect(failure).toBeInstanceOf(TileMismatchError)
      expect((failure as TileMismatchError).paths).toContain(tamper)
      expect(kept).toEqual([])
    }
    // A tile the proof does not use is not read, so it cannot fail it.
    const untouched = authenticated(leaves, size, 'tile/0/000')
    await expect(untouched.tree.inclusionProofs([300])).resolves.toHaveLength(1)
    expect(untouched.asked).not.toContain('tile/0/000')
    expect(untouched.kept.map(({ tile }) => tilePath(tile)).sort()).toEqual([
      'tile/0/001',
      'tile/0/003.p/10',
      'tile/1/000.p/3',
    ])
  })

  it('refuses honest tiles against another root, and bytes of the wrong length', async () => {
    const leaves = leavesOf(40)
    const other = merkleTree(leavesOf(41).slice(1)).root(40)
    const forged = authenticated(leaves, 40, undefined, other)
    await expect(forged.tree.inclusionProofs([3])).rejects.toBeInstanceOf(TileMismatchError)

    const short = authenticatedTiles(40, merkleTree(leaves).root(40), (tiles) =>
      Promise.resolve(tiles.map(() => new Uint8Array(32))),
    )
    await expect(tiledTree(40, short).root()).rejects.toBeInstanceOf(TileMismatchError)
  })

  it('refuses to answer a tile that is not one of the tree (a narrower partial tile goes unchecked)', async () => {
    const leaves = leavesOf(40)
    const read = authenticatedTiles(40, merkleTree(leaves).root(40), server(leaves).read)
    await expect(read([{ level: 0, index: 0, width: 39 }])).rejects.toBeInstanceOf(RangeError)
    await expect(read([{ level: 0, index: 0, width: 256 }])).rejects.toBeInstanceOf(RangeError)
  })
})
