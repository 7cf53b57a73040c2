import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  type BlockContent,
  BLOCK_VERSION,
  blockBytes,
  blockHash,
  commitment,
  createChainVerifier,
  GENESIS_PREV_HASH,
  type StoredBlock,
} from './block'
import { canonicalJson, normalizeText, type CanonicalValue } from './canonical'

// The frozen encoding: if this file has to change, old blocks no longer verify. Add a version instead.
const GOLDEN = JSON.parse(
  readFileSync(fileURLToPath(new URL('../testdata/golden/block-v1.json', import.meta.url)), 'utf8'),
) as { content: BlockContent; canonical: string; hash: string }

function content(height: number, prevHash: string, overrides: Partial<BlockContent> = {}): BlockContent {
  return {
    ...GOLDEN.content,
    height,
    prevHash,
    first: height === 0,
    time: `2026-11-24T12:00:${String(height % 60).padStart(2, '0')}.000Z`,
    ...overrides,
  }
}

function chain(length: number): StoredBlock[] {
  const blocks: StoredBlock[] = []
  let prev = GENESIS_PREV_HASH
  for (let height = 0; height < length; height++) {
    const c = content(height, prev)
    const hash = blockHash(c)
    blocks.push({ id: `block-${height}`, hash, content: c })
    prev = hash
  }
  return blocks
}

function verify(blocks: StoredBlock[]) {
  const verifier = createChainVerifier()
  for (const block of blocks) verifier.push(block)
  return verifier.result()
}

describe('block encoding', () => {
  it('matches the golden file byte for byte', () => {
    expect(new TextDecoder().decode(blockBytes(GOLDEN.content))).toBe(GOLDEN.canonical)
    expect(blockHash(GOLDEN.content)).toBe(GOLDEN.hash)
  })

  it('hashes the same text typed in composed or decomposed form alike (NFC)', () => {
    const composed = { ...GOLDEN.content, item: { ...GOLDEN.content.item, name: 'Caf\u00e9 table' } }
    const decomposed = { ...GOLDEN.content, item: { ...GOLDEN.content.item, name: 'Cafe\u0301 table' } }
    expect(blockHash(composed)).toBe(blockHash(decomposed))
  })

  it('sorts keys by UTF-16 code units and refuses values another implementation might encode differently', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'], é: 'é', Z: 0 })).toBe(
      '{"Z":0,"a":[true,null,"x"],"b":1,"é":"é"}',
    )
    expect(() => canonicalJson(1.5)).toThrow(TypeError)
    expect(() => canonicalJson(Number.NaN)).toThrow(TypeError)
    expect(() => canonicalJson({ a: undefined } as never)).toThrow(TypeError)
  })

  it('commits to a secret with a salt: same text and salt match, another salt or text does not', () => {
    const salt = '00112233445566778899aabbccddeeff'
    const secret = commitment('The key is under the mat', salt)
    expect(secret).toMatch(/^[0-9a-f]{64}$/)
    expect(commitment('The key is under the mat', salt)).toBe(secret)
    expect(commitment('The key is under the mat', 'ff112233445566778899aabbccddeeff')).not.toBe(secret)
    expect(commitment('The key is under the rug', salt)).not.toBe(secret)
    expect(commitment('', salt)).toBeNull()
    expect(() => commitment('x', '0011')).toThrow(RangeError)
  })
})

describe('block encoding, for any content (fast-check)', () => {
  /** The generic RFC 8785 encoder of ./canonical, which the written-out block encoder must equal. */
  const generic = (c: BlockContent) => canonicalJson(normalizeText(c as unknown as CanonicalValue))

  it('is byte-identical to the generic RFC 8785 encoder of the NFC-normalised content', async () => {
    const fc = await import('fast-check')
    // Any UTF-16 text: lone surrogates, controls, quotes, decomposed accents.
    const text = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme-composite' }))
    const maybe = fc.option(text, { nil: null })
    const party = fc.record({ id: text, name: text })
    const content = fc.record({
      v: fc.constant(BLOCK_VERSION),
      kind: fc.constantFrom('HANDOVER' as const, 'AUTO_TRANSFER' as const),
      circle: party,
      height: fc.nat(),
      prevHash: text,
      first: fc.boolean(),
      time: text,
      handoverId: maybe,
      item: party,
      from: party,
      to: party,
      ownership: fc.constantFrom('COMPLETE' as const, 'PARTIAL' as const),
      commitments: fc.record({ requesterComment: maybe, receiverComment: maybe, secretMessage: maybe }),
    })
    fc.assert(
      fc.property(content, (c) => {
        expect(new TextDecoder().decode(blockBytes(c))).toBe(generic(c))
      }),
      { numRuns: 1000 },
    )
  })

  it('refuses what is not a block rather than encoding it some other way', () => {
    const c = GOLDEN.content
    expect(() => blockBytes({ ...c, height: 1.5 })).toThrow(TypeError)
    expect(() => blockBytes({ ...c, item: { id: 'x' } } as never)).toThrow(TypeError)
    expect(() => blockBytes({ ...c, first: 'yes' } as never)).toThrow(TypeError)
    expect(() => blockBytes({} as never)).toThrow(TypeError)
    // A field a block does not have is not encoded: such a leaf is not canonical.
    const extra = { ...c, note: 'smuggled' } as BlockContent
    expect(new TextDecoder().decode(blockBytes(extra))).not.toBe(generic(extra))
  })
})

describe('chain verification', () => {
  it('accepts an intact chain of any length', () => {
    expect(verify([])).toEqual({ valid: true, blockCount: 0, failingBlocks: [] })
    expect(verify(chain(25))).toEqual({ valid: true, blockCount: 25, failingBlocks: [] })
  })

  it('reports exactly the block whose content, hash, height or link was changed', () => {
    const cases: [string, (blocks: StoredBlock[]) => void][] = [
      [
        'a renamed item',
        (b) => (b[7]!.content = { ...b[7]!.content, item: { ...b[7]!.content.item, name: 'Other' } }),
      ],
      [
        'another receiver',
        (b) => (b[7]!.content = { ...b[7]!.content, to: { id: 'someone', name: 'Mallory' } }),
      ],
      ['a stored hash', (b) => (b[7]!.hash = 'f'.repeat(64))],
      ['a height', (b) => (b[7]!.content = { ...b[7]!.content, height: 8 })],
      ['a link', (b) => (b[7]!.content = { ...b[7]!.content, prevHash: GENESIS_PREV_HASH })],
      [
        'a commitment',
        (b) =>
          (b[7]!.content = {
            ...b[7]!.content,
            commitments: { ...b[7]!.content.commitments, secretMessage: 'a'.repeat(64) },
          }),
      ],
    ]
    for (const [what, tamper] of cases) {
      const blocks = chain(12)
      tamper(blocks)
      const result = verify(blocks)
      expect(result.valid, what).toBe(false)
      // A changed stored hash also breaks the next block's link; anything else breaks only itself.
      expect(
        result.failingBlocks.map((f) => f.index),
        what,
      ).toEqual(what === 'a stored hash' ? [7, 8] : [7])
    }
  })

  it('notices a removed block and a first block that is not flagged as first', () => {
    const blocks = chain(6)
    blocks.splice(3, 1)
    expect(verify(blocks).failingBlocks.map((f) => f.index)).toEqual([3, 4])
    const unflagged = chain(2)
    unflagged[0]!.content = { ...unflagged[0]!.content, first: false }
    unflagged[0]!.hash = blockHash(unflagged[0]!.content)
    expect(verify(unflagged).failingBlocks.map((f) => f.index)).toEqual([0, 1])
  })

  it('reports a block whose content cannot be encoded, and goes on', () => {
    const blocks = chain(3)
    blocks[1]!.content = { ...blocks[1]!.content, height: 1.5 }
    expect(verify(blocks).failingBlocks.map((f) => f.index)).toEqual([1])
  })
})

describe('chain verification, for any chain and any single change', () => {
  it('reports the changed block and only the blocks a changed hash unlinks', async () => {
    const fc = await import('fast-check')
    const field = fc.constantFrom('item', 'from', 'to', 'time', 'ownership', 'handoverId', 'secret', 'hash')
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.nat(),
        field,
        fc.string({ minLength: 1 }),
        (length, at, which, text) => {
          const blocks = chain(length)
          const index = at % length
          const block = blocks[index]!
          const c = block.content
          const changed: Record<string, () => void> = {
            item: () => (block.content = { ...c, item: { ...c.item, name: `${c.item.name}${text}` } }),
            from: () => (block.content = { ...c, from: { ...c.from, id: `${c.from.id}${text}` } }),
            to: () => (block.content = { ...c, to: { ...c.to, name: `${c.to.name}${text}` } }),
            time: () => (block.content = { ...c, time: `${c.time}${text}` }),
            ownership: () =>
              (block.content = { ...c, ownership: c.ownership === 'COMPLETE' ? 'PARTIAL' : 'COMPLETE' }),
            handoverId: () => (block.content = { ...c, handoverId: `${c.handoverId}${text}` }),
            secret: () =>
              (block.content = { ...c, commitments: { ...c.commitments, secretMessage: 'b'.repeat(64) } }),
            hash: () =>
              (block.hash =
                block.hash.split('').reverse().join('') === block.hash
                  ? '0'.repeat(64)
                  : block.hash.split('').reverse().join('')),
          }
          changed[which]!()
          const failing = verify(blocks).failingBlocks.map((f) => f.index)
          const expected = which === 'hash' && index + 1 < length ? [index, index + 1] : [index]
          expect(failing).toEqual(expected)
        },
      ),
      { numRuns: 300 },
    )
  })
})
