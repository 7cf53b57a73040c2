import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { ed25519 } from '@noble/curves/ed25519.js'
import { describe, expect, it } from 'vitest'
import { type BlockContentV1, type BlockContentV3, type KeptNames, blockBytes, blockHash } from './block'
import { circleOrigin, signCheckpoint } from './checkpoint'
import { merkleTree } from './merkle'
import { publicKeyOf, seedSigner, verifierKey } from './note'
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
        'circle 2: a block without hash or height',
        'circle 3: not a circle of the ledger part',
      ]),
    )
  })
})

describe('verifyDataExport with erased and redacted names (issue 24)', () => {
  const read = (name: string) =>
    JSON.parse(readFileSync(fileURLToPath(new URL(`../testdata/golden/${name}`, import.meta.url)), 'utf8'))
  const v1 = read('block-v1.json') as { content: BlockContentV1 }
  const v3 = read('block-v3.json') as { content: BlockContentV3; names: KeptNames }
  const seed = ed25519.utils.randomSecretKey()
  const key = {
    ...seedSigner('circles.example', seed),
    vkey: verifierKey('circles.example', publicKeyOf(seed)),
  }
  const origin = circleOrigin('circles.example', v3.content.circle.id)

  /** A person's file with a redacted v1 block (height 0) and a v3 block with its names (height 1). */
  function file() {
    const first: BlockContentV1 = { ...v1.content, circle: v3.content.circle, height: 0, first: true }
    const firstHash = blockHash(first)
    const second: BlockContentV3 = { ...v3.content, height: 1, prevHash: firstHash, first: false }
    const hashes = [firstHash, blockHash(second)]
    const tree = merkleTree(hashes.map((h) => Uint8Array.from(Buffer.from(h, 'hex'))))
    const checkpoint = signCheckpoint({ origin, size: 2, rootHash: tree.root(), extensions: [] }, key)
    const proof = (i: number) => tree.inclusionProof(i).map((h) => Buffer.from(h).toString('hex'))
    return {
      format: 'circles-data',
      ledger: {
        keys: [key.vkey],
        circles: [
          {
            circleId: v3.content.circle.id,
            origin,
            checkpoint,
            size: 2,
            blocks: [
              {
                id: 'b0',
                height: 0,
                hash: firstHash,
                redacted: ['from'],
                content: { ...first, from: { ...first.from, name: null } },
                inclusionProof: proof(0),
              },
              {
                id: 'b1',
                height: 1,
                hash: hashes[1],
                leaf: Buffer.from(blockBytes(second)).toString('base64'),
                content: second,
                names: v3.names,
                inclusionProof: proof(1),
              },
            ],
          },
        ],
      },
    }
  }

  it('takes a redacted block by its place in the signed log and checks the names kept beside v3', () => {
    expect(verifyDataExport(JSON.stringify(file()))).toMatchObject({
      valid: true,
      blockCount: 2,
      redactedBlocks: 1,
      problems: [],
    })
    // Erased names (both null) are fine: the hash covers only the commitments.
    const erased = file()
    erased.ledger.circles[0]!.blocks[1]!.names = {
      from: { name: null, salt: null },
      to: v3.names.to,
    }
    expect(verifyDataExport(JSON.stringify(erased)).valid).toBe(true)
  })

  it('catches a redacted block that is not in the signed log, and a name that does not open its commitment', () => {
    const moved = file()
    moved.ledger.circles[0]!.blocks[0]!.hash = 'ab'.repeat(32)
    expect(verifyDataExport(JSON.stringify(moved)).problems).toEqual([
      'circle 1, block 0: its audit path does not lead to the signed checkpoint',
    ])
    const renamed = file()
    renamed.ledger.circles[0]!.blocks[1]!.names = {
      ...v3.names,
      from: { ...v3.names.from, name: 'Someone Else' },
    }
    expect(verifyDataExport(JSON.stringify(renamed)).problems).toEqual([
      'circle 1, block 1: a name beside it does not open its commitment',
    ])
    // A full block passed off as redacted (its names are there) is refused.
    const posing = file() as { ledger: { circles: { blocks: { content: object }[] }[] } }
    posing.ledger.circles[0]!.blocks[0]!.content = {
      ...posing.ledger.circles[0]!.blocks[0]!.content,
      from: v1.content.from,
    }
    expect(verifyDataExport(JSON.stringify(posing)).problems).toEqual([
      'circle 1, block 0: not a redacted block',
    ])
  })
})
