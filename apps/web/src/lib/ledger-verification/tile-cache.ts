import { clear, createStore, getMany, setMany, type UseStore } from 'idb-keyval'

/**
 * The tiles of circles' trees this device checked (issue 29, docs/decisions/0060), in IndexedDB keyed by
 * circle and the full tile's path: for each tile its widest checked bytes. A tile's hashes only grow at
 * the end, so a partial tile of any width is the start of what is kept, and a full tile never changes:
 * a check whose tiles are all here fetches none (each is still checked with every batch it is part of).
 * Only tiles that made a signed root are written. Removed with the offline data at sign-out.
 */
let store: UseStore | undefined
const tileStore = () => (store ??= createStore('circles-ledger-tiles', 'tiles'))

/** Where a tile of a circle's tree is kept. */
export const tileKey = (circleId: string, path: string) => `${circleId}/${path}`

/** The kept bytes of these keys (undefined where none). */
export const keptTiles = (keys: string[]) => getMany<Uint8Array | undefined>(keys, tileStore())

/** Keeps checked tiles (the caller writes only what is wider than what was kept). */
export const keepTiles = (entries: [key: string, data: Uint8Array][]) => setMany(entries, tileStore())

export const clearKeptTiles = () => clear(tileStore())
