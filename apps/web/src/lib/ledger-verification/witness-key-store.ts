import { createStore, del, get, set, type UseStore } from 'idb-keyval'
import { api } from '@/lib/api-client'

// Where this device keeps its witness keys (issue 29, docs/decisions/0063), apart from the signing code
// (witness-key.ts, with @noble/curves): sign-out needs only this, and the app's first load carries it.

/** This device's witness key for one account, as kept in IndexedDB `circles-witness`. */
export interface StoredWitnessKey {
  userId: string
  /** The random id this device registered under (a UUID). */
  deviceId: string
  /** The 32-byte public key. */
  publicKey: Uint8Array
  privateKey: CryptoKey | null
  /** Only where WebCrypto has no Ed25519. */
  seed: Uint8Array | null
  /** Set once the server registered the key: its C2SP name and verifier key. */
  name?: string
  verifierKey?: string
}

/** Where keys are kept, per account (injected in tests). */
export interface WitnessKeyStore {
  get(userId: string): Promise<StoredWitnessKey | undefined>
  set(key: StoredWitnessKey): Promise<void>
  delete(userId: string): Promise<void>
}

let store: UseStore | undefined
const keyStore = () => (store ??= createStore('circles-witness', 'keys'))

export const deviceKeyStore: WitnessKeyStore = {
  get: (userId) => get<StoredWitnessKey>(userId, keyStore()),
  set: (key) => set(key.userId, key, keyStore()),
  delete: (userId) => del(userId, keyStore()),
}

/**
 * Sign-out (docs/decisions/0063): the key leaves the server (its cosignatures with it) and this
 * device. Best effort: when the server cannot be reached, the key stays registered there, unusable, and
 * counts against the account's ten devices until removed (DELETE /api/ledger/witness-keys/:deviceId).
 */
export async function forgetWitnessKey(userId: string, keys: WitnessKeyStore = deviceKeyStore) {
  const key = await keys.get(userId).catch(() => undefined)
  if (!key) return
  if (key.name) {
    await api.delete(`/ledger/witness-keys/${encodeURIComponent(key.deviceId)}`).catch(() => undefined)
  }
  await keys.delete(userId).catch(() => undefined)
}
