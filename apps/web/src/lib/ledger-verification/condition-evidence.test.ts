import { noteCommitment } from '@circles/ledger'
import { describe, expect, it } from 'vitest'
import { conditionBlock, jpegBytes } from '@/test/condition-block'
import { checkNote, conditionEvidence, conditionSummary, sha256Hex } from './condition-evidence'

const SALT = '12'.repeat(16)

describe('condition evidence on this device (issue 28)', () => {
  it('hashes bytes to the SHA-256 OpenSSL computes', async () => {
    expect(await sha256Hex(new Uint8Array(0))).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    )
    expect(await sha256Hex(jpegBytes('sender photo 1'))).toBe(
      'a7d0070d5033786e564e730ef057e0705931ddbc400636d079eb7e45b9d8fcb6',
    )
  })

  it('checks a note against its commitment', () => {
    const committed = noteCommitment('Dent on the lid', SALT)
    expect(checkNote(committed, { note: 'Dent on the lid', noteSalt: SALT })).toEqual({
      text: 'Dent on the lid',
      check: 'ok',
    })
    expect(checkNote(committed, { note: 'No dent', noteSalt: SALT })?.check).toBe('mismatch')
    expect(checkNote(committed, { note: 'Dent on the lid', noteSalt: null })?.check).toBe('mismatch')
    // A note the block never recorded, shown anyway: not the recorded one.
    expect(checkNote(null, { note: 'Added later', noteSalt: SALT })?.check).toBe('mismatch')
    expect(checkNote(committed, { note: null, noteSalt: null })).toEqual({ text: null, check: 'notKept' })
    expect(checkNote(null, { note: null, noteSalt: null })).toBeNull()
  })

  it('takes the digests from the hashed content and only the urls from the server', () => {
    const block = conditionBlock()
    block.evidence!.from.photos[0]!.sha256 = 'f'.repeat(64)
    const evidence = conditionEvidence(block)!
    expect(evidence.sides[0]!.photos[0]!.expected).toBe(
      'a7d0070d5033786e564e730ef057e0705931ddbc400636d079eb7e45b9d8fcb6',
    )
    expect(conditionSummary(block)).toEqual({ photos: 3, notes: 1 })
    expect(
      conditionEvidence({ ...block, content: { ...block.content, evidence: null } } as typeof block),
    ).toBeNull()
  })
})
