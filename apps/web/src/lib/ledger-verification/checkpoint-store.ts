import { createStore, get, update } from 'idb-keyval'
import type { RememberedCheckpoint } from './verify-circle'

// The newest checkpoint this device verified per circle, in IndexedDB so it outlives the session: the
// next visit must extend it. Kept when the user signs out (it holds no personal data, only sizes and
// hashes the circle's members all see), so a rewrite between two sessions is still caught.
let store: ReturnType<typeof createStore> | undefined
const checkpoints = () => (store ??= createStore('circles-ledger', 'checkpoints'))

export const rememberedCheckpoint = (circleId: string) => get<RememberedCheckpoint>(circleId, checkpoints())

/**
 * Remembers a verified checkpoint unless the device meanwhile holds a larger one, or another tree of
 * the same size (checks in two tabs, or a receipt beside a ledger page, can finish in any order). The
 * read and the write are one IndexedDB transaction, so memory never moves back and a fork seen by one
 * check is not papered over by another.
 */
export const rememberCheckpoint = (checkpoint: RememberedCheckpoint) =>
  update<RememberedCheckpoint>(
    checkpoint.circleId,
    (kept) => (kept && !supersedes(checkpoint, kept) ? kept : checkpoint),
    checkpoints(),
  )

export const supersedes = (next: RememberedCheckpoint, kept: RememberedCheckpoint) =>
  next.size > kept.size || (next.size === kept.size && next.rootHash === kept.rootHash)
