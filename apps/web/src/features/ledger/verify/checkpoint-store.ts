import { createStore, get, set } from 'idb-keyval'
import type { RememberedCheckpoint } from './verify-circle'

// The newest checkpoint this device verified per circle, in IndexedDB so it outlives the session: the
// next visit must extend it. Kept when the user signs out (it holds no personal data, only sizes and
// hashes the circle's members all see), so a rewrite between two sessions is still caught.
let store: ReturnType<typeof createStore> | undefined
const checkpoints = () => (store ??= createStore('circles-ledger', 'checkpoints'))

export const rememberedCheckpoint = (circleId: string) => get<RememberedCheckpoint>(circleId, checkpoints())

export const rememberCheckpoint = (checkpoint: RememberedCheckpoint) =>
  set(checkpoint.circleId, checkpoint, checkpoints())
