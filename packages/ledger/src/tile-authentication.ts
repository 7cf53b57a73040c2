import { equalHashes, type Hash } from './merkle'
import {
  fullTileHash,
  HASH_SIZE,
  type Tile,
  tileFor,
  tiledTree,
  type TileReader,
  tilePath,
  TILE_WIDTH,
} from './tiles'

/** Tiles that do not make the signed tree: at least one of `paths` is not what the signed root says. */
export class TileMismatchError extends Error {
  override readonly name = 'TileMismatchError'
  constructor(readonly paths: string[]) {
    super(`the tiles ${paths.join(', ')} do not make the signed tree`)
  }
}

/** A tile with its bytes, as read. */
export interface TileData {
  tile: Tile
  data: Uint8Array
}

/** The partial tiles of a tree of `size` leaves: the rightmost of each level that does not end full. */
export function partialTiles(size: number): Tile[] {
  const tiles: Tile[] = []
  for (let level = 0; Math.floor(size / TILE_WIDTH ** level) > 0; level++) {
    const hashes = Math.floor(size / TILE_WIDTH ** level)
    if (hashes % TILE_WIDTH !== 0) tiles.push(tileFor(level, hashes - 1, size))
  }
  return tiles
}

/** The tile of the level above holding a full tile's hash (for a tree of `size` leaves). */
const parentOf = (tile: Tile, size: number): Tile => tileFor((tile.level as number) + 1, tile.index, size)

/**
 * Tiles authenticated against a signed tree before anything uses them, as Go's sumdb/tlog
 * TileHashReader does (issue 29, docs/decisions/0060). Each batch is read with what authenticates it:
 * the partial tiles of the tree, whose hashes make its root (every root subtree lies in the partial tile
 * of its level), and the tile above every full tile, up to a partial one. The root recomputed from the
 * partial tiles must be the signed root; then, from the top level down, each full tile must hash to the
 * entry its parent holds. Only then are the wanted tiles answered and every tile of the batch handed to
 * `authenticated` (to be kept: a full tile never changes, and a partial one is the start of any wider
 * one of its place). Anything else throws TileMismatchError,
 * before a byte is used or kept.
 */
export function authenticatedTiles(
  size: number,
  rootHash: Hash,
  read: TileReader,
  authenticated: (checked: TileData[]) => void | Promise<void> = () => undefined,
): TileReader {
  return async (wanted) => {
    const batch = new Map<string, Tile>()
    const add = (tile: Tile) => batch.set(tilePath(tile), tile)
    for (const tile of partialTiles(size)) add(tile)
    for (const tile of wanted) {
      // Only the tiles of this tree: a narrower tile than its level has would go unauthenticated.
      const inTree = tile.level !== 'entries' && tilePath(tileFor(tile.level, tile.index * TILE_WIDTH, size))
      if (inTree !== tilePath(tile)) throw new RangeError(`${tilePath(tile)} is not a tile of this tree`)
      add(tile)
      for (let t = tile; t.width === TILE_WIDTH; t = parentOf(t, size)) add(parentOf(t, size))
    }
    const tiles = [...batch.values()]
    const data = await read(tiles)
    const byPath = new Map<string, Uint8Array>()
    tiles.forEach((tile, i) => {
      const bytes = data[i]
      if (!bytes || bytes.length !== tile.width * HASH_SIZE) throw new TileMismatchError([tilePath(tile)])
      byPath.set(tilePath(tile), bytes)
    })

    const partial = partialTiles(size)
    const root = await tiledTree(size, (asked) =>
      Promise.resolve(asked.map((tile) => byPath.get(tilePath(tile))!)),
    ).root()
    if (!equalHashes(root, rootHash)) throw new TileMismatchError(partial.map(tilePath))

    const full = tiles
      .filter((tile) => tile.width === TILE_WIDTH)
      .sort((a, b) => (b.level as number) - (a.level as number))
    for (const tile of full) {
      const parent = byPath.get(tilePath(parentOf(tile, size)))!
      const at = (tile.index % TILE_WIDTH) * HASH_SIZE
      const expected = parent.subarray(at, at + HASH_SIZE)
      if (!equalHashes(fullTileHash(byPath.get(tilePath(tile))!), expected))
        throw new TileMismatchError([tilePath(tile)])
    }

    await authenticated(tiles.map((tile) => ({ tile, data: byPath.get(tilePath(tile))! })))
    return wanted.map((tile) => byPath.get(tilePath(tile))!)
  }
}
