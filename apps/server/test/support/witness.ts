import { generateKeyPairSync, randomUUID, sign } from 'node:crypto'
import { cosign, type NoteSigner, parseNote } from '@circles/ledger'
import type { SignedIn } from './circles'
import type { TestApp } from './test-app'

/** A member's device with a witness key (issue 29), registered for the account. */
export interface WitnessDevice {
  deviceId: string
  name: string
  verifierKey: string
  publicKey: Uint8Array
  /** This device's cosignature line on a checkpoint note (or its text), at `timestamp`. */
  cosign(note: string, timestamp?: number): string
}

export const nowSeconds = () => Math.floor(Date.now() / 1000)

/** A fresh Ed25519 key pair (node:crypto), the public key in base64 as the API takes it. */
export function witnessKeyPair() {
  const { publicKey: key, privateKey } = generateKeyPairSync('ed25519')
  const publicKey = new Uint8Array(Buffer.from(key.export({ format: 'jwk' }).x!, 'base64url'))
  const signer = (name: string): NoteSigner => ({
    name,
    publicKey,
    sign: (message) => new Uint8Array(sign(null, message, privateKey)),
  })
  return { publicKey, base64: Buffer.from(publicKey).toString('base64'), signer }
}

/** Registers a new device's key for `who` and answers the device. */
export async function witnessDevice(t: TestApp, who: SignedIn): Promise<WitnessDevice> {
  const deviceId = randomUUID()
  const keys = witnessKeyPair()
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/ledger/witness-keys',
    headers: who.auth,
    payload: { deviceId, publicKey: keys.base64 },
  })
  if (res.statusCode !== 200) throw new Error(`witness key: ${res.statusCode} ${res.body}`)
  const { name, verifierKey } = res.json().witnessKey as { name: string; verifierKey: string }
  const signer = keys.signer(name)
  return {
    deviceId,
    name,
    verifierKey,
    publicKey: keys.publicKey,
    cosign: (note, timestamp = nowSeconds()) =>
      cosign(note.includes('\n\n') ? parseNote(note).text : note, signer, timestamp),
  }
}

/** The circle's newest checkpoint note as a member reads it. */
export async function currentCheckpoint(t: TestApp, who: SignedIn, circleId: string): Promise<string> {
  const res = await t.app.inject({ url: `/api/ledger/${circleId}/checkpoint`, headers: who.auth })
  if (res.statusCode !== 200) throw new Error(`checkpoint: ${res.statusCode} ${res.body}`)
  return res.json().checkpoint as string
}

/** Posts a cosignature of `device` on `note` (as `who`). */
export function submitCosignature(
  t: TestApp,
  who: SignedIn,
  circleId: string,
  payload: { checkpoint: string; cosignature: string },
) {
  return t.app.inject({
    method: 'POST',
    url: `/api/ledger/${circleId}/cosignatures`,
    headers: who.auth,
    payload,
  })
}
