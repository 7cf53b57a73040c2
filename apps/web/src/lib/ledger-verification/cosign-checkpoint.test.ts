import {
  cosignerKeyId,
  cosignerVerifierKey,
  parseCosignatureLine,
  parseCosignerKey,
  seedSigner,
  verifyCosignature,
} from '@circles/ledger'
import { describe, expect, it, vi } from 'vitest'
import { log } from '@/test/ledger-device'
import { cosignatureLine, cosignVerified, type CosignedMemory } from './cosign-checkpoint'
import type { WitnessSigner } from './witness-key'

const seed = seedSigner('circles.example/witness/ben/device-2', new Uint8Array(32).fill(2))
const signer: WitnessSigner = {
  deviceId: 'device-2',
  name: seed.name,
  verifierKey: cosignerVerifierKey(seed.name, seed.publicKey),
  publicKey: seed.publicKey,
  sign: async (message) => seed.sign(message),
}
const text = (note: string) => note.slice(0, note.indexOf('\n\n') + 1)

function memory(): CosignedMemory & { sizes: Map<string, number> } {
  const sizes = new Map<string, number>()
  return { sizes, get: async (k) => sizes.get(k), set: async (k, s) => void sizes.set(k, s) }
}

describe('cosigning a verified checkpoint', () => {
  it('writes a C2SP cosignature line over the checkpoint’s text that the package verifies', async () => {
    const note = log(3).note(3)
    const line = await cosignatureLine(note, signer, 1_795_000_000)
    const cosignature = parseCosignatureLine(line)
    expect(cosignature).toMatchObject({
      name: signer.name,
      id: cosignerKeyId(seed.name, seed.publicKey),
      timestamp: 1_795_000_000,
    })
    expect(verifyCosignature(text(note), cosignature, parseCosignerKey(signer.verifierKey))).toBe(true)
    expect(verifyCosignature(text(log(2).note(2)), cosignature, parseCosignerKey(signer.verifierKey))).toBe(
      false,
    )
  })

  it('sends one cosignature per circle and size, however often and at once the check runs', async () => {
    const post = vi.fn(async () => undefined)
    const deps = {
      signer: async () => signer,
      post,
      memory: memory(),
      now: () => new Date('2026-11-27T05:00:00Z'),
    }
    const note = log(3).note(3)
    const sent = await Promise.all([cosignVerified('c', note, 3, deps), cosignVerified('c', note, 3, deps)])
    expect(sent.sort()).toEqual([false, true])
    expect(await cosignVerified('c', note, 3, deps)).toBe(false)
    expect(post).toHaveBeenCalledTimes(1)
    expect(post).toHaveBeenCalledWith('c', {
      checkpoint: text(note),
      cosignature: expect.stringMatching(/^— /),
    })
    // A smaller tree is not cosigned after a larger one; the next size is.
    expect(await cosignVerified('c', log(2).note(2), 2, deps)).toBe(false)
    expect(await cosignVerified('c', log(4).note(4), 4, deps)).toBe(true)
    expect(post).toHaveBeenCalledTimes(2)
  })

  it('remembers nothing when the server refused, so the next check sends it again', async () => {
    const post = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(undefined)
    const deps = { signer: async () => signer, post, memory: memory() }
    await expect(cosignVerified('c', log(3).note(3), 3, deps)).rejects.toThrow('offline')
    expect(await cosignVerified('c', log(3).note(3), 3, deps)).toBe(true)
  })
})
