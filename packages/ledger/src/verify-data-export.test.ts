import { describe, expect, it } from 'vitest'
import { verifyDataExport } from './verify-data-export'

// The whole check against a real server's file is in apps/server/test/data-export.test.ts; here, what a
// file from anywhere may hold must not crash the verifier or pass as valid.
describe('verifyDataExport', () => {
  it('refuses what is not a data export', () => {
    expect(verifyDataExport('not json')).toMatchObject({ valid: false, problems: ['the file is not JSON'] })
    expect(verifyDataExport('{"format":"other"}').valid).toBe(false)
    expect(verifyDataExport('{"format":"circles-data","ledger":{}}').valid).toBe(false)
  })

  it('refuses a block without a checkpoint, a key or readable bytes', () => {
    const file = {
      format: 'circles-data',
      ledger: {
        keys: [],
        circles: [
          {
            circleId: 'c',
            origin: 'x/circle/c',
            checkpoint: null,
            blocks: [{ hash: 'ab', leaf: '!!', height: 0 }],
          },
          { origin: 'x', blocks: [null, { hash: 1 }] },
          'nonsense',
        ],
      },
    }
    const result = verifyDataExport(JSON.stringify(file))
    expect(result.valid).toBe(false)
    expect(result.problems).toEqual(
      expect.arrayContaining([
        'no verifier key to check signatures with',
        'circle 1: no signed checkpoint to check against',
        'circle 1, block 0: its leaf bytes do not decode',
        'circle 2: a block without hash, leaf or height',
        'circle 3: not a circle of the ledger part',
      ]),
    )
  })
})
