import { clear, createStore, getMany, setMany, type UseStore } from 'idb-keyval'

/**
 * The full tiles of circles' trees this device checked (issue 29, docs/decisions/0060), in IndexedDB
 * keyed by circle and tile path. A full tile's bytes never change for its path, so one kept here is
 * never fetched again (and still checked with every batch it is part of). Only tiles that made a
 * signed root are written; partial tiles are not kept. Removed with the offline data at sign-out.
 */
let store: UseStore | undefined
const tileStore = () => (store ??= createStore('circles-ledger-tiles', 'tiles'))

/** Where a tile of a circle's tree is kept. */
export const tileKey = (circleId: string, path: string) => `${circleId}/${path}`

/** The kept bytes of these keys (undefined where none). */
export const keptTiles = (keys: string[]) => getMany<Uint8Array | undefined>(keys, tileStore())

/** Keeps checked full tiles. */
export const keepTiles = (entries: [key: string, data: Uint8Array][]) => setMany(entries, tileStore())

export const clearKeptTiles = () => clear(tileStore())
