import { addSignatureLines, cosign, cosignerVerifierKey, seedSigner } from '@circles/ledger'
import { MESSAGES } from '@circles/shared'
import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '@/lib/api-client'
import { CIRCLE, device, KEYS, log } from '@/test/ledger-device'
import { type WitnessDeps, witnessCheck } from './witness-check'
import type { Witness } from './split-view'
import { verifyCircle } from './verify-circle'
import type { WitnessSigner } from './witness-key'

const seed = (name: string, fill: number) => seedSigner(name, new Uint8Array(32).fill(fill))
const ida = seed('circles.example/witness/ida/d1', 1)
const ben = seed('circles.example/witness/ben/d2', 2)
const witness = (s: typeof ida, userId: string): Witness => ({
  userId,
  memberName: userId,
  name: s.name,
  verifierKey: cosignerVerifierKey(s.name, s.publicKey),
})
const benSigner: WitnessSigner = {
  deviceId: 'd2',
  name: ben.name,
  verifierKey: witness(ben, 'ben').verifierKey,
  publicKey: ben.publicKey,
  sign: async (message) => ben.sign(message),
}
const textOf = (note: string) => note.slice(0, note.indexOf('\n\n') + 1)

/** Ben's device: its stores in memory, the server's answers as given. */
function deps(overrides: Partial<WitnessDeps> = {}) {
  const sizes = new Map<string, number>()
  const post = vi.fn(async () => undefined)
  const all: WitnessDeps = {
    userId: () => 'ben',
    witnesses: async () => [witness(ida, 'ida'), witness(ben, 'ben')],
    signer: async () => benSigner,
    ownKeyName: async () => ben.name,
    forgetKey: async () => undefined,
    post,
    memory: { get: async (k) => sizes.get(k), set: async (k, s) => void sizes.set(k, s) },
    remembered: async () => undefined,
    now: () => new Date('2026-11-27T05:00:00Z'),
    ...overrides,
  }
  return { deps: all, post }
}

const checked = async (note: string) =>
  verifyCircle(CIRCLE, [], device({ blocks: log(3).blocks, note: () => note }).deps)

describe('the witness step after a check', () => {
  it('cosigns a verified checkpoint and leaves the result as it is when the others agree', async () => {
    const note = addSignatureLines(log(3).note(3), [cosign(textOf(log(3).note(3)), ida, 1_795_000_000)])
    const result = await checked(note)
    const { deps: d, post } = deps()
    expect(await witnessCheck(result, KEYS, d)).toBe(result)
    expect(post).toHaveBeenCalledWith(CIRCLE, {
      checkpoint: textOf(note),
      cosignature: expect.stringContaining(ben.name),
    })
  })

  it('turns a verified check into the split-view alarm when another device cosigned another tree', async () => {
    const honest = log(3).note(3)
    const rewritten = log(3, { height: 0, to: 'Mallory' })
    const note = addSignatureLines(rewritten.note(3), [cosign(textOf(honest), ida, 1_795_000_000)])
    const result = await verifyCircle(CIRCLE, [], device({ blocks: rewritten.blocks, note: () => note }).deps)
    const { deps: d, post } = deps()
    const alarm = await witnessCheck(result, KEYS, d)
    expect(alarm).toMatchObject({
      state: 'alarm',
      reason: 'split-view',
      evidence: { splitView: { kind: 'other-root', witness: { userId: 'ida' } }, keys: KEYS },
    })
    // This device still vouches for what it verified: that is what the other device needs to see.
    expect(post).toHaveBeenCalledTimes(1)
  })

  it('keeps the check’s result when the witness list or the registration fails, or nobody is signed in', async () => {
    const result = await checked(log(3).note(3))
    const noList = deps({ witnesses: () => Promise.reject(new Error('Network error')) })
    expect(await witnessCheck(result, KEYS, noList.deps)).toBe(result)
    expect(noList.post).toHaveBeenCalledTimes(1)
    // ...and says why this device did not cosign.
    const noKey = deps({
      signer: () => Promise.reject(new Error('An account can have at most 10 witness devices.')),
    })
    expect(await witnessCheck(result, KEYS, noKey.deps)).toEqual({
      ...result,
      cosignError: 'An account can have at most 10 witness devices.',
    })
    expect(noKey.post).not.toHaveBeenCalled()
    const refused = deps({ post: () => Promise.reject(new Error('Network error')) })
    expect(await witnessCheck(result, KEYS, refused.deps)).toMatchObject({
      state: 'verified',
      cosignError: 'Network error',
    })
    const nobody = deps({ userId: () => undefined })
    expect(await witnessCheck(result, KEYS, nobody.deps)).toBe(result)
    expect(nobody.post).not.toHaveBeenCalled()
  })

  it('makes and registers a new key when the server no longer has this device’s (removed on /profile)', async () => {
    const result = await checked(log(3).note(3))
    const gone = new ApiError(MESSAGES.cosignatureUnknownKey, { status: 403, code: 'FORBIDDEN' })
    const fresh = { ...benSigner, deviceId: 'd3', name: 'circles.example/witness/ben/d3' }
    let keys = [benSigner, fresh]
    const forgetKey = vi.fn(async () => void (keys = keys.slice(1)))
    const post = vi.fn(async (_circle: string, body: { cosignature: string }) => {
      if (body.cosignature.includes(benSigner.name)) throw gone
    })
    const { deps: d } = deps({ signer: async () => keys[0]!, forgetKey, post })
    expect(await witnessCheck(result, KEYS, d)).toBe(result)
    expect(forgetKey).toHaveBeenCalledOnce()
    expect(post).toHaveBeenCalledTimes(2)
    expect(post.mock.calls[1]![1].cosignature).toContain(fresh.name)
    // Any other refusal is reported, not answered with a new key.
    const other = deps({ forgetKey, post: () => Promise.reject(new ApiError('Nope', { status: 403 })) })
    expect(await witnessCheck(result, KEYS, other.deps)).toMatchObject({ cosignError: 'Nope' })
    expect(forgetKey).toHaveBeenCalledOnce()
  })
})
