import { addSignatureLines, cosign, seedSigner } from '@circles/ledger'
import { describe, expect, it } from 'vitest'
import { log } from '@/test/ledger-device'
import { circleFingerprint } from './fingerprint'

describe('the circle fingerprint', () => {
  it('is six groups of four digits, the same for the same checkpoint whatever cosignatures it carries', async () => {
    const note = log(3).note(3)
    const code = await circleFingerprint(note)
    expect(code).toMatch(/^\d{4}( \d{4}){5}$/)
    const witness = seedSigner('circles.example/witness/ida/d', new Uint8Array(32).fill(1))
    const text = note.slice(0, note.indexOf('\n\n') + 1)
    expect(await circleFingerprint(addSignatureLines(note, [cosign(text, witness, 1_795_000_000)]))).toBe(
      code,
    )
  })

  it('differs for another tree of the same size and for another size', async () => {
    const code = await circleFingerprint(log(3).note(3))
    expect(await circleFingerprint(log(3, { height: 0, to: 'Mallory' }).note(3))).not.toBe(code)
    expect(await circleFingerprint(log(3).note(2))).not.toBe(code)
  })
})
