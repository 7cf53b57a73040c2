import {
  authenticatedTiles,
  type Hash,
  hashToHex,
  type Tile,
  type TileData,
  tiledTree,
  type TileReader,
  tilePath,
  TileMismatchError,
  TILE_WIDTH,
  HASH_SIZE,
} from '@circles/ledger'
import type { VerifyDeps } from './verify-circle'

/** Where the tiles come from: the server's tile route, and the device's store of full tiles. */
export interface TileSources {
  fetchTile(circleId: string, path: string): Promise<Uint8Array>
  kept(keys: string[]): Promise<(Uint8Array | undefined)[]>
  keep(entries: [key: string, data: Uint8Array][]): Promise<void>
  keyOf(circleId: string, path: string): string
}

/** At most this many tile requests at once (a cold page of a large log needs a handful). */
const PARALLEL_FETCHES = 6

async function eachLimited<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>) {
  const results: R[] = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      results[i] = await task(items[i]!)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}

/**
 * The device check's proofs built on this device from the circle's tiles (issue 29,
 * docs/decisions/0060), instead of asking the proof endpoints: full tiles from the device's store when
 * it has them, the rest from the server; every batch authenticated against the signed root
 * (authenticatedTiles) before a hash of it is used, and only then are the fetched full tiles kept. A
 * tile that does not make the root throws TileMismatchError, which verifyCircle turns into its alarm.
 * A failed batch is tried once more with the server's tiles alone: a tile spoiled on the device is not
 * the server's broken promise (and whatever authenticates then is what the server signed). One
 * instance serves one check: a tile fetched for its consistency proof is reused (and authenticated
 * again) for its audit paths, not fetched twice (a tile's bytes never change for its path).
 */
export function tileProofs(sources: TileSources): Pick<VerifyDeps, 'consistency' | 'inclusions'> {
  /** One place per tile of the tree, whatever its width: the full tile's path. */
  const keptKey = (circleId: string, tile: Tile) =>
    sources.keyOf(circleId, tilePath({ ...tile, width: TILE_WIDTH }))
  const fetches = new Map<string, Promise<Uint8Array>>()
  const fetchOnce = (circleId: string, path: string, again: boolean) => {
    const key = sources.keyOf(circleId, path)
    let fetch = fetches.get(key)
    if (!fetch || again) fetches.set(key, (fetch = sources.fetchTile(circleId, path)))
    // A failed fetch is not kept: the next batch asks again.
    fetch.catch(() => fetches.get(key) === fetch && fetches.delete(key))
    return fetch
  }

  /** The tree of a signed root read from tiles; `useKept` false reads every tile from the server anew. */
  function treeOf(circleId: string, size: number, rootHash: Hash, useKept: boolean) {
    const fetched = new Set<string>()
    /** What the device keeps for each tile read: its widest checked bytes (a partial tile is a prefix). */
    const keptBytes = new Map<string, number>()
    const read: TileReader = async (tiles: Tile[]) => {
      const wanted = useKept ? tiles : []
      const keys = wanted.map((tile) => keptKey(circleId, tile))
      // A store that cannot be read (private mode, quota) only costs the fetches.
      const kept = await sources.kept(keys).catch(() => keys.map(() => undefined))
      const found = new Map(wanted.map((tile, i) => [tilePath(tile), kept[i]]))
      return eachLimited(tiles, PARALLEL_FETCHES, async (tile) => {
        const path = tilePath(tile)
        const local = found.get(path)
        keptBytes.set(path, local?.length ?? 0)
        const bytes = tile.width * HASH_SIZE
        if (local && local.length >= bytes) return local.subarray(0, bytes)
        fetched.add(path)
        return fetchOnce(circleId, path, !useKept)
      })
    }
    // Written while the check goes on (not awaited): a write that fails only costs a later fetch. Only
    // what is wider than what the device had: a check of an older size never narrows what is kept.
    const keep = (checked: TileData[]) => {
      const entries = checked
        .filter(
          ({ tile, data }) =>
            fetched.has(tilePath(tile)) && data.length > (keptBytes.get(tilePath(tile)) ?? 0),
        )
        .map(({ tile, data }): [string, Uint8Array] => [keptKey(circleId, tile), data])
      if (entries.length > 0) sources.keep(entries).catch(() => undefined)
    }
    return tiledTree(size, authenticatedTiles(size, rootHash, read, keep))
  }

  async function fromTiles<T>(
    circleId: string,
    size: number,
    rootHash: Hash,
    build: (tree: ReturnType<typeof treeOf>) => Promise<T>,
  ): Promise<T> {
    try {
      return await build(treeOf(circleId, size, rootHash, true))
    } catch (error) {
      if (!(error instanceof TileMismatchError)) throw error
      return build(treeOf(circleId, size, rootHash, false))
    }
  }

  return {
    async consistency(circleId, from, to, rootHash) {
      const proof = await fromTiles(circleId, to, rootHash, (tree) => tree.consistencyProof(from))
      return { proof: proof.map(hashToHex) }
    },
    async inclusions(circleId, indexes, size, rootHash) {
      const paths = await fromTiles(circleId, size, rootHash, (tree) => tree.inclusionProofs(indexes))
      return { proofs: indexes.map((index, i) => ({ index, proof: paths[i]!.proof.map(hashToHex) })) }
    },
  }
}
