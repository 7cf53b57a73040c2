import { parseCosignerKey, cosignerVerifierKey } from '@circles/ledger'
import { ed25519 } from '@noble/curves/ed25519.js'
import { describe, expect, it, vi } from 'vitest'
import { api } from '@/lib/api-client'
import {
  generateWitnessKey,
  signerOf,
  witnessSigner,
  type StoredWitnessKey,
  type WitnessKeyStore,
} from './witness-key'

function store(): WitnessKeyStore & { keys: Map<string, StoredWitnessKey> } {
  const keys = new Map<string, StoredWitnessKey>()
  return {
    keys,
    get: async (id) => keys.get(id),
    set: async (key) => void keys.set(key.userId, key),
    delete: async (id) => void keys.delete(id),
  }
}

const registered = (key: StoredWitnessKey) => {
  const name = `circles.example/witness/${key.userId}/${key.deviceId}`
  return { ...key, name, verifierKey: cosignerVerifierKey(name, key.publicKey) }
}

describe('this device’s witness key', () => {
  it('is a non-extractable WebCrypto Ed25519 key whose signatures verify', async () => {
    const key = await generateWitnessKey('ben')
    expect(key.privateKey).not.toBeNull()
    expect(key.privateKey!.extractable).toBe(false)
    expect(key.seed).toBeNull()
    const message = new TextEncoder().encode('cosignature/v1\n')
    const signature = await signerOf(registered(key)).sign(message)
    expect(ed25519.verify(signature, message, key.publicKey)).toBe(true)
  })

  it('falls back to a seed signed with @noble/curves where the browser has no Ed25519', async () => {
    const subtle = { generateKey: () => Promise.reject(new DOMException('no', 'NotSupportedError')) }
    const key = await generateWitnessKey('ben', subtle as unknown as SubtleCrypto)
    expect(key.privateKey).toBeNull()
    expect(key.seed).toHaveLength(32)
    const message = new TextEncoder().encode('text\n')
    expect(ed25519.verify(await signerOf(registered(key)).sign(message), message, key.publicKey)).toBe(true)
  })

  it('is registered once per account, even when several checks ask at once, and again after a failure', async () => {
    const keys = store()
    const post = vi.spyOn(api, 'post')
    post.mockRejectedValueOnce(new Error('Network error'))
    await expect(witnessSigner('ben', keys)).rejects.toThrow('Network error')
    const made = keys.keys.get('ben')!
    expect(made.name).toBeUndefined()

    post.mockImplementation(async (_path, body) => {
      const { deviceId } = body as { deviceId: string }
      const name = `circles.example/witness/ben/${deviceId}`
      return {
        witnessKey: { deviceId, name, verifierKey: cosignerVerifierKey(name, made.publicKey), createdAt: '' },
      }
    })
    const [a, b] = await Promise.all([witnessSigner('ben', keys), witnessSigner('ben', keys)])
    expect(a).toBe(b)
    expect(post).toHaveBeenCalledTimes(2)
    // The same key as before the failure, now with the server's name.
    expect(a.deviceId).toBe(made.deviceId)
    expect(parseCosignerKey(a.verifierKey).publicKey).toEqual(made.publicKey)
    await witnessSigner('ben', keys)
    expect(post).toHaveBeenCalledTimes(2)
    post.mockRestore()
  })
})
