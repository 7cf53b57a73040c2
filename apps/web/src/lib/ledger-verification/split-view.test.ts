import { addSignatureLines, cosign, cosignerVerifierKey, seedSigner } from '@circles/ledger'
import { describe, expect, it } from 'vitest'
import { CIRCLE, device, KEYS, log } from '@/test/ledger-device'
import { findSplitView, splitViewAlarm, type Witness } from './split-view'
import { type CircleVerification, verifyCircle } from './verify-circle'

const ida = seedSigner('circles.example/witness/ida/device-1', new Uint8Array(32).fill(1))
const ben = seedSigner('circles.example/witness/ben/device-2', new Uint8Array(32).fill(2))
const witness = (signer: typeof ida, userId: string): Witness => ({
  userId,
  memberName: userId === 'ida' ? 'Ida' : 'Ben',
  name: signer.name,
  verifierKey: cosignerVerifierKey(signer.name, signer.publicKey),
})
const WITNESSES = [witness(ida, 'ida'), witness(ben, 'ben')]
const TIME = 1_795_000_000
const textOf = (note: string) => note.slice(0, note.indexOf('\n\n') + 1)
const cosigned = (note: string, signer: typeof ida, over = note) =>
  addSignatureLines(note, [cosign(textOf(over), signer, TIME)])

const honest = log(3)
const rewritten = log(3, { height: 0, to: 'Mallory' })

/** The check of a device that saw `served` now, after `before` (if any). */
async function check(served: string, before?: string): Promise<CircleVerification> {
  const memory = new Map()
  if (before) {
    const first = device({ blocks: honest.blocks, note: () => before }, memory)
    await verifyCircle(CIRCLE, [], first.deps)
  }
  const now = device({ blocks: rewritten.blocks, note: () => served }, memory)
  return verifyCircle(CIRCLE, [], now.deps)
}

describe('reading the other members’ cosignatures for a split view', () => {
  it('finds nothing when the others cosigned what this device verified, or nobody cosigned', async () => {
    const note = cosigned(cosigned(rewritten.note(3), ida), ben)
    const result = await check(note)
    expect(result.state).toBe('verified')
    expect(findSplitView(result, WITNESSES, ben.name)).toBeNull()
    expect(findSplitView(await check(rewritten.note(3)), WITNESSES, ben.name)).toBeNull()
  })

  it('catches another device’s cosignature over another tree of the same size', async () => {
    // Ida's device cosigned the honest checkpoint; the server serves her line on the rewritten one.
    const note = cosigned(rewritten.note(3), ida, honest.note(3))
    const result = await check(note)
    expect(result.state).toBe('verified')
    const split = findSplitView(result, WITNESSES, ben.name)
    expect(split).toMatchObject({
      kind: 'other-root',
      size: 3,
      witness: { userId: 'ida', memberName: 'Ida' },
      ownAccount: false,
    })
    expect(note).toContain(split!.line)
    // This device's own line is never read as another member's.
    expect(findSplitView(result, WITNESSES, ida.name)).toBeNull()
  })

  it('names a device of the same account as the account’s own, and still raises the split', async () => {
    // Ida's phone cosigned the honest checkpoint; her laptop (another key of the same account) now
    // checks the rewritten one.
    const laptop = seedSigner('circles.example/witness/ida/device-3', new Uint8Array(32).fill(3))
    const witnesses = [...WITNESSES, witness(laptop, 'ida')]
    const result = await check(cosigned(rewritten.note(3), ida, honest.note(3)))
    const split = findSplitView(result, witnesses, laptop.name, 'ida')
    expect(split).toMatchObject({ kind: 'other-root', witness: { name: ida.name }, ownAccount: true })
    expect(findSplitView(result, witnesses, laptop.name, 'ben')).toMatchObject({ ownAccount: false })
  })

  it('catches another device’s cosignature on a checkpoint that forks from the one this device kept', async () => {
    const note = cosigned(rewritten.note(3), ben)
    const result = await check(note, honest.note(3))
    expect(result).toMatchObject({ state: 'alarm', reason: 'fork' })
    const split = findSplitView(result, WITNESSES, ida.name)
    expect(split).toMatchObject({ kind: 'inconsistent', size: 3, witness: { userId: 'ben' } })

    const alarm = splitViewAlarm(result, split!, {
      witnesses: WITNESSES,
      keys: KEYS,
      remembered: null,
      detectedAt: '2026-11-27T05:00:00.000Z',
    })
    expect(alarm).toMatchObject({ state: 'alarm', reason: 'split-view', seenSize: 3, size: 3 })
    if (alarm.state !== 'alarm') throw new Error('expected an alarm')
    // Both signed notes and the cosignature: what this device kept, what it received with the line.
    expect(alarm.evidence.remembered?.note).toBe(honest.note(3))
    expect(alarm.evidence.received).toBe(note)
    expect(alarm.evidence.splitView).toMatchObject({
      line: split!.line,
      witnesses: WITNESSES.map((w) => w.verifierKey),
    })
    expect(alarm.evidence.keys).toEqual(KEYS)
  })

  it('a consistency proof that failed on tiles the server changed stays that alarm, cosigned or not', async () => {
    const memory = new Map()
    await verifyCircle(CIRCLE, [], device(log(2), memory).deps)
    const note = cosigned(honest.note(3), ben)
    const tampered = device({ blocks: honest.blocks, note: () => note }, memory, { tamper: 'tile/0/000.p/3' })
    const result = await verifyCircle(CIRCLE, [], tampered.deps)
    expect(result).toMatchObject({
      state: 'alarm',
      reason: 'consistency',
      evidence: { proof: { type: 'tiles' } },
    })
    expect(findSplitView(result, WITNESSES, ida.name)).toBeNull()
  })

  it('a fork nobody else cosigned stays the fork alarm; a note that does not open says nothing of cosigners', async () => {
    const fork = await check(rewritten.note(3), honest.note(3))
    expect(findSplitView(fork, WITNESSES, ida.name)).toBeNull()
    const unsigned = await check(`${textOf(rewritten.note(3))}\n— circles.example AAAA\n`)
    expect(unsigned).toMatchObject({ state: 'alarm', reason: 'signature' })
    expect(findSplitView(unsigned, WITNESSES)).toBeNull()
  })

  it('skips lines of keys it does not know and witness keys it cannot read', async () => {
    const stranger = seedSigner('witness.example', new Uint8Array(32).fill(9))
    const note = cosigned(rewritten.note(3), stranger, honest.note(3))
    const broken = [{ userId: 'x', memberName: 'X', name: stranger.name, verifierKey: 'not a key' }]
    expect(findSplitView(await check(note), [...WITNESSES, ...broken])).toBeNull()
  })
})
