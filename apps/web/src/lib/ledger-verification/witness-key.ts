import { ed25519 } from '@noble/curves/ed25519.js'
import { ZWitnessKeyResponse } from '@circles/shared'
import { api } from '@/lib/api-client'
import { deviceKeyStore, type StoredWitnessKey, type WitnessKeyStore } from './witness-key-store'

export { deviceKeyStore, type StoredWitnessKey, type WitnessKeyStore }

// This device's witness key (issue 29, docs/decisions/0063): an Ed25519 key it cosigns its circles'
// checkpoints with, registered with the server once per account and device. A non-extractable WebCrypto
// key where the browser has Ed25519 (the private key never leaves the browser's key store, not even to
// this code); elsewhere a random seed signed with @noble/curves, kept the same way (witness-key-store.ts).

/** A registered witness key that can sign. */
export interface WitnessSigner {
  deviceId: string
  name: string
  verifierKey: string
  publicKey: Uint8Array
  sign(message: Uint8Array): Promise<Uint8Array>
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))

/** A new key pair: WebCrypto's non-extractable Ed25519, or a seed where the browser lacks it. */
export async function generateWitnessKey(userId: string, subtle = globalThis.crypto?.subtle) {
  const deviceId = crypto.randomUUID()
  try {
    const pair = (await subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify'])) as CryptoKeyPair
    const publicKey = new Uint8Array(await subtle.exportKey('raw', pair.publicKey))
    return { userId, deviceId, publicKey, privateKey: pair.privateKey, seed: null } satisfies StoredWitnessKey
  } catch {
    const seed = ed25519.utils.randomSecretKey()
    return { userId, deviceId, publicKey: ed25519.getPublicKey(seed), privateKey: null, seed }
  }
}

export function signerOf(key: StoredWitnessKey & { name: string; verifierKey: string }): WitnessSigner {
  const { deviceId, name, verifierKey, publicKey, privateKey, seed } = key
  return {
    deviceId,
    name,
    verifierKey,
    publicKey,
    sign: async (message) =>
      privateKey
        ? new Uint8Array(await crypto.subtle.sign({ name: 'Ed25519' }, privateKey, message as BufferSource))
        : ed25519.sign(message, seed!),
  }
}

const register = (key: StoredWitnessKey) =>
  api
    .post(
      '/ledger/witness-keys',
      { deviceId: key.deviceId, publicKey: toBase64(key.publicKey) },
      ZWitnessKeyResponse,
    )
    .then((answer) => answer.witnessKey)

const pending = new Map<string, Promise<WitnessSigner>>()

/**
 * The account's witness key on this device, made and registered on first use; one registration at a
 * time per account (checks of several circles start together). A failed registration is tried again at
 * the next check with the same key.
 */
export function witnessSigner(
  userId: string,
  keys: WitnessKeyStore = deviceKeyStore,
): Promise<WitnessSigner> {
  const running = pending.get(userId)
  if (running) return running
  const work = (async () => {
    let key = await keys.get(userId)
    if (!key) {
      key = await generateWitnessKey(userId)
      await keys.set(key)
    }
    if (!key.name || !key.verifierKey) {
      const { name, verifierKey } = await register(key)
      key = { ...key, name, verifierKey }
      await keys.set(key)
    }
    return signerOf(key as StoredWitnessKey & { name: string; verifierKey: string })
  })().finally(() => pending.delete(userId))
  pending.set(userId, work)
  return work
}
