import { readFileSync } from 'node:fs'
import type { Arbitrary } from 'fast-check'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  type BlockContent,
  type BlockContentV1,
  type BlockContentV2,
  type BlockContentV3,
  type BlockContentV4,
  type BlockContentV5,
  BLOCK_VERSION,
  BLOCK_VERSIONS,
  checkBlock,
  isRedacted,
  type KeptNames,
  nameCommitment,
  noteCommitment,
  blockBytes,
  blockHash,
  commitment,
  createChainVerifier,
  GENESIS_PREV_HASH,
  isWellFormed,
  type StoredBlock,
} from './block'
import { canonicalJson, normalizeText, type CanonicalValue } from './canonical'

// The frozen encoding: if this file has to change, old blocks no longer verify. Add a version instead.
const GOLDEN = JSON.parse(
  readFileSync(fileURLToPath(new URL('../testdata/golden/block-v1.json', import.meta.url)), 'utf8'),
) as { content: BlockContentV1; canonical: string; hash: string }
// Encoding v2 (issue 23): v1's fields and `reason`. Its block links to the v1 golden block above.
const GOLDEN_V2 = JSON.parse(
  readFileSync(fileURLToPath(new URL('../testdata/golden/block-v2.json', import.meta.url)), 'utf8'),
) as { content: BlockContentV2; canonical: string; hash: string }

function content(height: number, prevHash: string, overrides: Partial<BlockContentV1> = {}): BlockContentV1 {
  return {
    ...GOLDEN.content,
    height,
    prevHash,
    first: height === 0,
    time: `2026-11-24T12:00:${String(height % 60).padStart(2, '0')}.000Z`,
    ...overrides,
  } as BlockContentV1
}

type V1Block = StoredBlock & { content: BlockContentV1 }
function chain(length: number): V1Block[] {
  const blocks: V1Block[] = []
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

  it('matches the v2 golden file byte for byte, and v1 blocks keep their v1 bytes', () => {
    expect(BLOCK_VERSION).toBeGreaterThanOrEqual(3)
    expect(new TextDecoder().decode(blockBytes(GOLDEN_V2.content))).toBe(GOLDEN_V2.canonical)
    expect(blockHash(GOLDEN_V2.content)).toBe(GOLDEN_V2.hash)
    expect(GOLDEN.content.v).toBe(1)
    expect(GOLDEN.canonical).not.toContain('"reason"')
    // The reason is hashed: the same transfer told as 'left' is another block.
    expect(blockHash({ ...GOLDEN_V2.content, reason: 'LEFT' } as BlockContent)).not.toBe(GOLDEN_V2.hash)
    // A version without an encoding has no bytes.
    expect(() => blockBytes({ ...GOLDEN.content, v: 4 } as never)).toThrow(TypeError)
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
    const fields = {
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
    }
    const content = fc.oneof(
      fc.record({ v: fc.constant(1 as const), ...fields }),
      fc.record({ v: fc.constant(2 as const), reason: maybe, ...fields }),
      // v3 (issue 24): the parties as {id, nameCommitment}.
      fc.record({
        v: fc.constant(3 as const),
        reason: maybe,
        ...fields,
        from: fc.record({ id: text, nameCommitment: text }),
        to: fc.record({ id: text, nameCommitment: text }),
      }),
      // v4 (issue 26): v3's fields, the loan kinds and `loan`.
      fc.record({
        v: fc.constant(4 as const),
        reason: maybe,
        ...fields,
        kind: fc.constantFrom(
          'HANDOVER' as const,
          'AUTO_TRANSFER' as const,
          'LOAN' as const,
          'RETURN' as const,
          'LOAN_CHANGE' as const,
        ),
        loan: fc.option(fc.record({ id: text, dueAt: maybe }), { nil: null }),
        from: fc.record({ id: text, nameCommitment: text }),
        to: fc.record({ id: text, nameCommitment: text }),
      }),
      // v5 (issue 28): v4's fields and `evidence`.
      fc.record({
        v: fc.constant(5 as const),
        reason: maybe,
        ...fields,
        kind: fc.constantFrom('HANDOVER' as const, 'LOAN' as const, 'RETURN' as const),
        loan: fc.option(fc.record({ id: text, dueAt: maybe }), { nil: null }),
        from: fc.record({ id: text, nameCommitment: text }),
        to: fc.record({ id: text, nameCommitment: text }),
        evidence: fc.option(
          fc.record({
            asDescribed: fc.boolean(),
            from: fc.record({ note: maybe, photos: fc.array(text, { maxLength: 4 }) }),
            to: fc.record({ note: maybe, photos: fc.array(text, { maxLength: 4 }) }),
          }),
          { nil: null },
        ),
      }),
    ) as Arbitrary<BlockContent>
    fc.assert(
      fc.property(content, (c) => {
        expect(new TextDecoder().decode(blockBytes(c))).toBe(generic(c))
      }),
      { numRuns: 1000 },
    )
    // About 4 s alone; the machine running the suite in parallel may be slower.
  }, 30_000)

  it('refuses what is not a block rather than encoding it some other way', () => {
    const c = GOLDEN.content
    expect(() => blockBytes({ ...c, height: 1.5 })).toThrow(TypeError)
    expect(() => blockBytes({ ...c, item: { id: 'x' } } as never)).toThrow(TypeError)
    expect(() => blockBytes({ ...c, first: 'yes' } as never)).toThrow(TypeError)
    expect(() => blockBytes({} as never)).toThrow(TypeError)
    // A field a block does not have is not encoded: such a leaf is not canonical.
    const extra = { ...c, note: 'smuggled' } as unknown as BlockContent
    expect(new TextDecoder().decode(blockBytes(extra))).not.toBe(generic(extra))
  })
})

describe('chain verification', () => {
  it('accepts an intact chain of any length', () => {
    expect(verify([])).toEqual({ valid: true, blockCount: 0, failingBlocks: [], redactedBlocks: 0 })
    expect(verify(chain(25))).toEqual({ valid: true, blockCount: 25, failingBlocks: [], redactedBlocks: 0 })
  })

  it('reports exactly the block whose content, hash, height or link was changed', () => {
    const cases: [string, (blocks: V1Block[]) => void][] = [
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

describe('chains written in both versions (issue 23)', () => {
  it('verifies the v1 golden block followed by the v2 golden block', () => {
    expect(
      verify([
        { id: 'v1', hash: GOLDEN.hash, content: GOLDEN.content },
        { id: 'v2', hash: GOLDEN_V2.hash, content: GOLDEN_V2.content },
      ]),
    ).toEqual({ valid: true, blockCount: 2, failingBlocks: [], redactedBlocks: 0 })
  })

  it('verifies a long chain of v1 blocks that goes on in v2', () => {
    const blocks: StoredBlock[] = chain(10)
    let prev = blocks.at(-1)!.hash
    for (let height = 10; height < 15; height++) {
      const c = { ...content(height, prev), v: 2, kind: 'AUTO_TRANSFER', reason: 'LEFT' } as BlockContent
      const hash = blockHash(c)
      blocks.push({ id: `block-${height}`, hash, content: c })
      prev = hash
    }
    expect(verify(blocks)).toEqual({ valid: true, blockCount: 15, failingBlocks: [], redactedBlocks: 0 })
  })

  it('refuses a v2 block whose reason does not fit its kind, even with a matching hash', () => {
    const wrong: BlockContent[] = [
      { ...GOLDEN_V2.content, reason: null } as BlockContent,
      { ...GOLDEN_V2.content, reason: 'BORED' } as never,
      { ...GOLDEN_V2.content, kind: 'HANDOVER', reason: 'LEFT' } as BlockContent,
    ]
    for (const c of wrong) {
      expect(isWellFormed(c)).toBe(false)
      const result = verify([
        { id: 'v1', hash: GOLDEN.hash, content: GOLDEN.content },
        { id: 'bad', hash: blockHash(c), content: c },
      ])
      expect(result.failingBlocks.map((f) => f.index)).toEqual([1])
    }
    expect(isWellFormed({ ...GOLDEN_V2.content, kind: 'HANDOVER', reason: null } as BlockContent)).toBe(true)
  })

  it('refuses a block relabelled from v2 to v1 or from v1 to v2 (the version is hashed)', () => {
    const asV1 = { ...GOLDEN_V2.content, v: 1 } as BlockContent
    const asV2 = { ...GOLDEN.content, v: 2, reason: null } as BlockContent
    const result = verify([
      { id: 'a', hash: GOLDEN.hash, content: asV2 },
      { id: 'b', hash: GOLDEN_V2.hash, content: asV1 },
    ])
    expect(result.failingBlocks.map((f) => f.index)).toEqual([0, 1])
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

/**
 * Issue 24 (docs/decisions/0034): v3 hashes each party's name only as a salted commitment; the name and
 * salt are kept beside the block and can be erased. Blocks written before v3 hold names in clear: their
 * names are redacted in storage and their stored hash is taken, checked by the links around it.
 */
describe('encoding v3: names as commitments, erasable (issue 24)', () => {
  const GOLDEN_V3 = JSON.parse(
    readFileSync(fileURLToPath(new URL('../testdata/golden/block-v3.json', import.meta.url)), 'utf8'),
  ) as { content: BlockContentV3; names: KeptNames; canonical: string; hash: string }
  const v1: StoredBlock = { id: 'v1', hash: GOLDEN.hash, content: GOLDEN.content }
  const v2: StoredBlock = { id: 'v2', hash: GOLDEN_V2.hash, content: GOLDEN_V2.content }
  const v3 = (names: KeptNames = GOLDEN_V3.names): StoredBlock => ({
    id: 'v3',
    hash: GOLDEN_V3.hash,
    content: GOLDEN_V3.content,
    names,
  })
  const erased = { name: null, salt: null }
  const redact = (block: StoredBlock, sides: ('from' | 'to')[]): StoredBlock => {
    const c = structuredClone(block.content) as BlockContentV1
    for (const side of sides) c[side].name = null
    return { ...block, content: c, redacted: sides }
  }

  it('matches the v3 golden file byte for byte, written by the code, with no name in its bytes', async () => {
    const { goldenV3 } = await import('../testdata/goldens-v3')
    expect(goldenV3()).toEqual(GOLDEN_V3)
    expect(new TextDecoder().decode(blockBytes(GOLDEN_V3.content))).toBe(GOLDEN_V3.canonical)
    expect(blockHash(GOLDEN_V3.content)).toBe(GOLDEN_V3.hash)
    expect(BLOCK_VERSIONS).toContain(3)
    // The keys in RFC 8785 order, the same bytes as the generic encoder.
    expect(GOLDEN_V3.canonical).toBe(
      canonicalJson(normalizeText(GOLDEN_V3.content as unknown as CanonicalValue)),
    )
    for (const { name } of Object.values(GOLDEN_V3.names)) expect(GOLDEN_V3.canonical).not.toContain(name)
    expect(nameCommitment(GOLDEN_V3.names.to.name!, GOLDEN_V3.names.to.salt!)).toBe(
      GOLDEN_V3.content.to.nameCommitment,
    )
  })

  it('keeps the v1 and v2 goldens as they were', () => {
    expect(GOLDEN.hash).toBe('105275e5437872cfb7f8c8d008b9abe3a648ae34e8bd37937db3c54a5986c343')
    expect(GOLDEN_V2.hash).toBe('f005e44aa0e7f85ba0a881ce7f9d4e5400072557e61565929cab1db195ae616a')
    expect(blockHash(GOLDEN.content)).toBe(GOLDEN.hash)
    expect(blockHash(GOLDEN_V2.content)).toBe(GOLDEN_V2.hash)
  })

  it('a name commitment is salted and domain-separated from comment commitments', () => {
    const salt = GOLDEN_V3.names.from.salt!
    const name = GOLDEN_V3.names.from.name!
    expect(nameCommitment(name, salt)).not.toBe(commitment(name, salt))
    expect(nameCommitment(name, 'ff'.repeat(16))).not.toBe(nameCommitment(name, salt))
    expect(nameCommitment('Zoe\u0308 Müller', salt)).toBe(nameCommitment('Zoë Müller', salt))
    expect(() => nameCommitment(name, '00')).toThrow(RangeError)
  })

  it('verifies a v1, v2, v3 chain, with the v3 names kept or erased', () => {
    expect(verify([v1, v2, v3()])).toEqual({
      valid: true,
      blockCount: 3,
      failingBlocks: [],
      redactedBlocks: 0,
    })
    const gone = v3({ from: erased, to: erased })
    expect(verify([v1, v2, gone])).toEqual({
      valid: true,
      blockCount: 3,
      failingBlocks: [],
      redactedBlocks: 0,
    })
    expect(verify([v1, v2, v3({ ...GOLDEN_V3.names, to: erased })]).valid).toBe(true)
    // Without any names beside it (an export that leaves them out), too.
    expect(verify([v1, v2, { ...gone, names: undefined }]).valid).toBe(true)
  })

  it('fails a v3 block whose kept name does not open its commitment, or is half erased', () => {
    const wrong: KeptNames[] = [
      { ...GOLDEN_V3.names, to: { ...GOLDEN_V3.names.to, name: 'Mallory' } },
      { ...GOLDEN_V3.names, from: { ...GOLDEN_V3.names.from, salt: 'ff'.repeat(16) } },
      { ...GOLDEN_V3.names, from: GOLDEN_V3.names.to, to: GOLDEN_V3.names.from },
      { ...GOLDEN_V3.names, to: { name: GOLDEN_V3.names.to.name, salt: null } },
      { ...GOLDEN_V3.names, to: { name: null, salt: GOLDEN_V3.names.to.salt } },
      { ...GOLDEN_V3.names, to: { name: GOLDEN_V3.names.to.name, salt: 'not hex' } },
    ]
    for (const names of wrong) {
      const result = verify([v1, v2, v3(names)])
      expect(result.valid).toBe(false)
      expect(result.failingBlocks.map((f) => f.index)).toEqual([2])
    }
    // A changed commitment is a changed hash.
    const c = { ...GOLDEN_V3.content, to: { ...GOLDEN_V3.content.to, nameCommitment: 'a'.repeat(64) } }
    expect(verify([v1, v2, { ...v3(), content: c }]).failingBlocks.map((f) => f.index)).toEqual([2])
  })

  it('verifies redacted v1 and v2 blocks inside a chain and counts them', () => {
    const chainOf = [redact(v1, ['from']), redact(v2, ['from', 'to']), v3({ from: erased, to: erased })]
    expect(verify(chainOf)).toEqual({ valid: true, blockCount: 3, failingBlocks: [], redactedBlocks: 2 })
    expect(isRedacted(chainOf[0]!)).toBe(true)
    // The marker must name exactly the null names, and a v3 block is never redacted.
    expect(isRedacted({ ...chainOf[0]!, redacted: ['to'] })).toBe(false)
    expect(verify([{ ...chainOf[0]!, redacted: ['to'] }, v2]).failingBlocks.map((f) => f.index)).toEqual([0])
    expect(verify([{ ...chainOf[0]!, redacted: undefined }, v2]).failingBlocks.map((f) => f.index)).toEqual([
      0,
    ])
  })

  it('catches a tampered redacted block: its links, its hash, its height', () => {
    const base = () => [redact(v1, ['from']), redact(v2, ['to']), v3()]
    const cases: [string, (b: StoredBlock[]) => void, number[]][] = [
      // Its stored hash no longer what the next block links to: both it and the next are reported.
      ['a stored hash', (b) => (b[1]!.hash = 'e'.repeat(64)), [1, 2]],
      ['a link', (b) => (b[1]!.content = { ...b[1]!.content, prevHash: 'e'.repeat(64) }), [1]],
      ['a height', (b) => (b[1]!.content = { ...b[1]!.content, height: 5 }), [1]],
      ['first', (b) => (b[0]!.content = { ...b[0]!.content, first: false }), [0]],
      ['a hash that is not one', (b) => (b[2] = { ...b[2]!, hash: 'zz' }), [2]],
      ['a removed block', (b) => b.splice(1, 1), [0, 1]],
    ]
    for (const [what, tamper, expected] of cases) {
      const blocks = base()
      tamper(blocks)
      const result = verify(blocks)
      expect(result.valid, what).toBe(false)
      expect(
        result.failingBlocks.map((f) => f.index),
        what,
      ).toEqual(expected)
    }
    // The expected hash of a redacted block the next block does not link to: what the next one names.
    const blocks = base()
    blocks[1]!.hash = 'e'.repeat(64)
    expect(verify(blocks).failingBlocks[0]).toMatchObject({ index: 1, expectedHash: GOLDEN_V2.hash })
  })
})

describe('checkBlock: one block on its own, as a page shows it', () => {
  it('tells a sound block, a redacted one and a mismatch apart', () => {
    const v3 = JSON.parse(
      readFileSync(fileURLToPath(new URL('../testdata/golden/block-v3.json', import.meta.url)), 'utf8'),
    ) as { content: BlockContentV3; names: KeptNames; hash: string }
    expect(checkBlock({ id: 'a', hash: GOLDEN.hash, content: GOLDEN.content })).toBe('ok')
    expect(checkBlock({ id: 'b', hash: v3.hash, content: v3.content, names: v3.names })).toBe('ok')
    const erased = { name: null, salt: null }
    expect(
      checkBlock({ id: 'b', hash: v3.hash, content: v3.content, names: { from: erased, to: erased } }),
    ).toBe('ok')
    const wrong = { ...v3.names, to: { ...v3.names.to, name: 'Mallory' } }
    expect(checkBlock({ id: 'b', hash: v3.hash, content: v3.content, names: wrong })).toBe('mismatch')
    const redacted = { ...GOLDEN.content, to: { ...GOLDEN.content.to, name: null } }
    expect(checkBlock({ id: 'c', hash: GOLDEN.hash, content: redacted, redacted: ['to'] })).toBe('redacted')
    expect(checkBlock({ id: 'c', hash: GOLDEN.hash, content: redacted })).toBe('mismatch')
    expect(checkBlock({ id: 'c', hash: 'nope', content: redacted, redacted: ['to'] })).toBe('mismatch')
  })
})

/**
 * Encoding v4 (issue 26, docs/decisions/0047): v3's fields plus `loan`, and the loan kinds. Its golden
 * block is a LOAN that goes on from the v3 golden block; goldens-v4.ts writes it.
 */
describe('encoding v4: loans on the ledger (issue 26)', () => {
  const read = <T>(name: string) =>
    JSON.parse(
      readFileSync(fileURLToPath(new URL(`../testdata/golden/${name}`, import.meta.url)), 'utf8'),
    ) as T
  const GOLDEN_V3 = read<{ content: BlockContentV3; names: KeptNames; hash: string }>('block-v3.json')
  const GOLDEN_V4 = read<{ content: BlockContentV4; names: KeptNames; canonical: string; hash: string }>(
    'block-v4.json',
  )
  const stored = (c: BlockContent, names?: KeptNames): StoredBlock => ({
    id: `b${c.height}`,
    hash: blockHash(c),
    content: c,
    ...(names ? { names } : {}),
  })
  const v1: StoredBlock = { id: 'v1', hash: GOLDEN.hash, content: GOLDEN.content }
  const v2: StoredBlock = { id: 'v2', hash: GOLDEN_V2.hash, content: GOLDEN_V2.content }
  const v3: StoredBlock = {
    id: 'v3',
    hash: GOLDEN_V3.hash,
    content: GOLDEN_V3.content,
    names: GOLDEN_V3.names,
  }
  const v4 = (c: Partial<BlockContentV4> = {}): StoredBlock =>
    stored({ ...GOLDEN_V4.content, ...c } as BlockContentV4, GOLDEN_V4.names)

  it('matches the v4 golden file byte for byte, written by the code', async () => {
    const { goldenV4 } = await import('../testdata/goldens-v4')
    expect(goldenV4()).toEqual(GOLDEN_V4)
    expect(BLOCK_VERSIONS).toContain(4)
    expect(new TextDecoder().decode(blockBytes(GOLDEN_V4.content))).toBe(GOLDEN_V4.canonical)
    expect(blockHash(GOLDEN_V4.content)).toBe(GOLDEN_V4.hash)
    expect(GOLDEN_V4.canonical).toBe(
      canonicalJson(normalizeText(GOLDEN_V4.content as unknown as CanonicalValue)),
    )
    // "loan" sits between "kind" and "ownership"; its "dueAt" before its "id".
    expect(GOLDEN_V4.canonical).toContain('"kind":"LOAN","loan":{"dueAt":"2026-12-12T22:59:00.000Z","id":')
    for (const { name } of Object.values(GOLDEN_V4.names)) expect(GOLDEN_V4.canonical).not.toContain(name)
  })

  it('keeps the v1, v2 and v3 goldens as they were, and a v1–v4 chain verifies', () => {
    expect(GOLDEN_V3.hash).toBe('9daa7d64635c2a85b76be3144337979c9eb0e66f4e256688f57ca29ba2e153b7')
    expect(blockHash(GOLDEN_V3.content)).toBe(GOLDEN_V3.hash)
    expect(verify([v1, v2, v3, v4()])).toEqual({
      valid: true,
      blockCount: 4,
      failingBlocks: [],
      redactedBlocks: 0,
    })
    // Names erased beside a v4 block: it still verifies; a wrong name does not.
    const erased = { name: null, salt: null }
    expect(verify([v1, v2, v3, { ...v4(), names: { from: erased, to: erased } }]).valid).toBe(true)
    const wrong = { ...GOLDEN_V4.names, to: { ...GOLDEN_V4.names.to, name: 'Mallory' } }
    expect(verify([v1, v2, v3, { ...v4(), names: wrong }]).failingBlocks.map((f) => f.index)).toEqual([3])
    expect(checkBlock(v4())).toBe('ok')
    expect(checkBlock({ ...v4(), names: wrong })).toBe('mismatch')
  })

  it('hashes the loan: a changed date or loan id is a changed hash', () => {
    const moved = {
      ...GOLDEN_V4.content,
      loan: { ...GOLDEN_V4.content.loan!, dueAt: '2026-12-13T22:59:00.000Z' },
    }
    expect(blockHash(moved)).not.toBe(GOLDEN_V4.hash)
    expect(
      verify([v1, v2, v3, { ...v4(), content: moved, hash: GOLDEN_V4.hash }]).failingBlocks.map(
        (f) => f.index,
      ),
    ).toEqual([3])
    // A v4 block relabelled v3 (dropping its loan) no longer hashes the same.
    const { loan: _loan, ...rest } = GOLDEN_V4.content
    expect(hashOr({ ...rest, v: 3 } as never)).not.toBe(GOLDEN_V4.hash)
  })

  it('accepts each kind only with the loan and reason it must carry', () => {
    const c = GOLDEN_V4.content
    const loan = c.loan!
    const ok: Partial<BlockContentV4>[] = [
      { kind: 'LOAN', loan, reason: null },
      { kind: 'RETURN', loan: { id: loan.id, dueAt: null }, reason: null },
      { kind: 'LOAN_CHANGE', loan, reason: null },
      { kind: 'LOAN_CHANGE', loan, reason: 'LEFT' },
      { kind: 'LOAN_CHANGE', loan, reason: 'REMOVED' },
      { kind: 'HANDOVER', loan: null, reason: null },
      { kind: 'AUTO_TRANSFER', loan: null, reason: 'LEFT' },
    ]
    for (const fields of ok)
      expect(isWellFormed({ ...c, ...fields } as BlockContentV4), JSON.stringify(fields)).toBe(true)
    const bad: Partial<BlockContentV4>[] = [
      { kind: 'LOAN', loan: null },
      { kind: 'LOAN', loan: { id: loan.id, dueAt: null } },
      { kind: 'LOAN', loan, reason: 'LEFT' },
      { kind: 'RETURN', loan },
      { kind: 'RETURN', loan: null },
      { kind: 'LOAN_CHANGE', loan: null },
      { kind: 'LOAN_CHANGE', loan: { id: loan.id, dueAt: null } },
      { kind: 'HANDOVER', loan },
      { kind: 'AUTO_TRANSFER', loan: null, reason: null },
      { kind: 'AUTO_TRANSFER', loan, reason: 'LEFT' },
      { kind: 'SOMETHING' as never, loan },
    ]
    for (const fields of bad) {
      const content = { ...c, ...fields } as BlockContentV4
      expect(isWellFormed(content), JSON.stringify(fields)).toBe(false)
      // With a matching hash the chain still refuses it.
      expect(
        verify([v1, v2, v3, stored(content, GOLDEN_V4.names)]).failingBlocks.map((f) => f.index),
      ).toEqual([3])
    }
    // The loan kinds do not exist before v4.
    const v3c = GOLDEN_V3.content
    for (const kind of ['LOAN', 'RETURN', 'LOAN_CHANGE'] as const)
      expect(isWellFormed({ ...v3c, kind } as unknown as BlockContentV3)).toBe(false)
    expect(() => blockBytes({ ...c, loan: { id: 5 } } as never)).toThrow(TypeError)
    expect(() => blockBytes({ ...c, loan: 'x' } as never)).toThrow(TypeError)
  })
})

/**
 * Encoding v5 (issue 28, docs/decisions/0057): v4's fields plus `evidence`, the condition each side
 * recorded. Its golden block is a RETURN with photos and notes on both sides; goldens-v5.ts writes it.
 */
describe('encoding v5: condition evidence on the ledger (issue 28)', () => {
  const read = <T>(name: string) =>
    JSON.parse(
      readFileSync(fileURLToPath(new URL(`../testdata/golden/${name}`, import.meta.url)), 'utf8'),
    ) as T
  type Golden5 = { content: BlockContentV5; names: KeptNames; canonical: string; hash: string }
  const GOLDEN_V5 = read<Golden5>('block-v5.json')
  const GOLDEN_V4 = read<{ content: BlockContentV4; hash: string }>('block-v4.json')
  const v5 = (c: Partial<BlockContentV5> = {}): StoredBlock => {
    const content = { ...GOLDEN_V5.content, ...c } as BlockContentV5
    return { id: 'v5', hash: blockHash(content), content, names: GOLDEN_V5.names }
  }
  const digest = 'ab'.repeat(32)
  const side = (photos: number, note: string | null = null) => ({ note, photos: Array(photos).fill(digest) })

  it('matches the v5 golden file byte for byte, written by the code; v1–v4 goldens unchanged', async () => {
    const { goldenV5 } = await import('../testdata/goldens-v5')
    expect(goldenV5()).toEqual({ ...GOLDEN_V5, notes: expect.anything() })
    expect(BLOCK_VERSION).toBe(5)
    expect(BLOCK_VERSIONS).toEqual([1, 2, 3, 4, 5])
    expect(new TextDecoder().decode(blockBytes(GOLDEN_V5.content))).toBe(GOLDEN_V5.canonical)
    expect(blockHash(GOLDEN_V5.content)).toBe(GOLDEN_V5.hash)
    expect(GOLDEN_V5.canonical).toBe(
      canonicalJson(normalizeText(GOLDEN_V5.content as unknown as CanonicalValue)),
    )
    // "evidence" sits between "commitments" and "first"; "asDescribed" < "from" < "to"; "note" < "photos".
    expect(GOLDEN_V5.canonical).toMatch(
      /"secretMessage":null\},"evidence":\{"asDescribed":false,"from":\{"note":"[0-9a-f]{64}","photos":\["/,
    )
    expect(blockHash(GOLDEN_V4.content)).toBe(GOLDEN_V4.hash)
    expect(GOLDEN.hash).toBe(blockHash(GOLDEN.content))
  })

  it('hashes every photo digest and note commitment: a swapped photo is a changed block', () => {
    const c = GOLDEN_V5.content
    const swapped = {
      ...c,
      evidence: { ...c.evidence!, to: { ...c.evidence!.to, photos: [digest] } },
    }
    expect(blockHash(swapped)).not.toBe(GOLDEN_V5.hash)
    expect(checkBlock({ ...v5(), content: swapped, hash: GOLDEN_V5.hash })).toBe('mismatch')
    const reordered = {
      ...c,
      evidence: {
        ...c.evidence!,
        from: { ...c.evidence!.from, photos: [...c.evidence!.from.photos].reverse() },
      },
    }
    expect(blockHash(reordered)).not.toBe(GOLDEN_V5.hash)
    // Relabelled v4 (its evidence dropped), the block no longer hashes the same.
    const { evidence: _e, ...rest } = c
    expect(hashOr({ ...rest, v: 4 } as never)).not.toBe(GOLDEN_V5.hash)
    expect(checkBlock(v5())).toBe('ok')
  })

  it('commits to a note with its own domain tag: salted, and never equal to a comment commitment', () => {
    const { text, salt } = {
      text: 'Received with a dent on the lid.',
      salt: 'f0e1d2c3b4a5968778695a4b3c2d1e0f',
    }
    expect(noteCommitment(text, salt)).toBe(GOLDEN_V5.content.evidence!.to.note)
    expect(noteCommitment(text, salt)).not.toBe(commitment(text, salt))
    expect(noteCommitment(text, '00'.repeat(16))).not.toBe(noteCommitment(text, salt))
    expect(noteCommitment('', salt)).toBeNull()
  })

  it('accepts evidence only where something was handed over, with at most 4 photos a side', () => {
    const ok: Partial<BlockContentV5>[] = [
      { evidence: null },
      { evidence: { asDescribed: false, from: side(4, digest), to: side(4, digest) } },
      { evidence: { asDescribed: true, from: side(1), to: side(0) } },
      { evidence: { asDescribed: false, from: side(0), to: side(0, digest) } },
      { kind: 'HANDOVER', loan: null, evidence: { asDescribed: false, from: side(2), to: side(0) } },
      { kind: 'AUTO_TRANSFER', loan: null, reason: 'LEFT', evidence: null },
    ]
    for (const fields of ok)
      expect(
        isWellFormed({ ...GOLDEN_V5.content, ...fields } as BlockContentV5),
        JSON.stringify(fields),
      ).toBe(true)
    const bad: Partial<BlockContentV5>[] = [
      { evidence: { asDescribed: false, from: side(5), to: side(0) } },
      { evidence: { asDescribed: false, from: side(0), to: side(0) } },
      { evidence: { asDescribed: true, from: side(0), to: side(0) } },
      { evidence: { asDescribed: true, from: side(1), to: side(1) } },
      { evidence: { asDescribed: false, from: { note: null, photos: ['not a digest'] }, to: side(0) } },
      { evidence: { asDescribed: false, from: { note: 'short', photos: [] }, to: side(0) } },
      {
        kind: 'AUTO_TRANSFER',
        loan: null,
        reason: 'LEFT',
        evidence: { asDescribed: false, from: side(1), to: side(0) },
      },
      { evidence: undefined as never },
    ]
    for (const fields of bad) {
      const content = { ...GOLDEN_V5.content, ...fields } as BlockContentV5
      expect(isWellFormed(content), JSON.stringify(fields)).toBe(false)
    }
    expect(() => blockBytes({ ...GOLDEN_V5.content, evidence: { asDescribed: 'yes' } } as never)).toThrow(
      TypeError,
    )
    expect(() => blockBytes({ ...GOLDEN_V5.content, evidence: undefined } as never)).toThrow(TypeError)
  })
})

function hashOr(c: BlockContent): string {
  try {
    return blockHash(c)
  } catch {
    return ''
  }
}
