import { mkdtemp, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { ed25519 } from '@noble/curves/ed25519.js'
import { describe, expect, it } from 'vitest'
import { type BlockContent, type BlockContentV1, GENESIS_PREV_HASH, blockBytes, blockHash } from './block'
import { circleOrigin, signCheckpoint } from './checkpoint'
import { main } from './cli'
import { appendLeaf, emptyFrontier, frontierRoot } from './merkle'
import { publicKeyOf, seedSigner, verifierKey } from './note'
import { verifyExport } from './verify-export'

const GOLDEN = JSON.parse(
  readFileSync(fileURLToPath(new URL('../testdata/golden/block-v1.json', import.meta.url)), 'utf8'),
) as { content: BlockContentV1 }
const ORIGIN = circleOrigin('circles.example', GOLDEN.content.circle.id)
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64')

function signer(name = 'circles.example') {
  const seed = ed25519.utils.randomSecretKey()
  return { ...seedSigner(name, seed), vkey: verifierKey(name, publicKeyOf(seed)) }
}

/** An export as the server writes it: header, blocks, a checkpoint after every append. */
function exportOf(n: number, key = signer(), rename?: { height: number; name: string }) {
  const lines: object[] = [{ type: 'log', origin: ORIGIN, keys: [key.vkey] }]
  const checkpoints: { size: number; note: string }[] = []
  let prev = GENESIS_PREV_HASH
  let frontier = emptyFrontier()
  for (let height = 0; height < n; height++) {
    const content: BlockContent = {
      ...GOLDEN.content,
      height,
      prevHash: prev,
      first: height === 0,
      item: { ...GOLDEN.content.item, name: rename?.height === height ? rename.name : `Thing ${height}` },
    }
    const hash = blockHash(content)
    lines.push({ type: 'block', id: `b${height}`, height, hash, leaf: b64(blockBytes(content)) })
    frontier = appendLeaf(frontier, Buffer.from(hash, 'hex'))
    const note = signCheckpoint(
      { origin: ORIGIN, size: height + 1, rootHash: frontierRoot(frontier), extensions: [] },
      key,
    )
    checkpoints.push({ size: height + 1, note })
    prev = hash
  }
  for (const c of checkpoints) lines.push({ type: 'checkpoint', ...c })
  return { text: lines.map((l) => JSON.stringify(l)).join('\n') + '\n', key, checkpoints }
}

describe('verifyExport (the offline check)', () => {
  it('accepts an intact export, with the export’s key or a key given', () => {
    const { text, key } = exportOf(5)
    expect(verifyExport(text)).toMatchObject({
      valid: true,
      blockCount: 5,
      checkpoint: { size: 5 },
      problems: [],
    })
    expect(verifyExport(text, { keys: [key.vkey] }).valid).toBe(true)
  })

  it('rejects a changed block, whatever the hashes claim', () => {
    const { text } = exportOf(4)
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    const block = lines.find((l) => l.type === 'block' && l.height === 2)
    const content = JSON.parse(Buffer.from(block.leaf, 'base64').toString())
    content.item.name = 'Stolen drill'
    block.leaf = b64(blockBytes(content))
    const result = verifyExport(lines.map((l) => JSON.stringify(l)).join('\n'))
    expect(result.valid).toBe(false)
    expect(result.problems.join('\n')).toMatch(/block 2: its hash is not the hash of its leaf/)
  })

  it('reports a leaf that is not a block (extra field, fraction, wrong shape) instead of failing', () => {
    const { text } = exportOf(3)
    const leaves = [
      (c: Record<string, unknown>) => ({ ...c, note: 'smuggled' }),
      (c: Record<string, unknown>) => ({ ...c, height: 1.5 }),
      () => ['not', 'a', 'block'],
    ]
    for (const change of leaves) {
      const lines = text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
      const block = lines.find((l) => l.type === 'block' && l.height === 1)
      const content = JSON.parse(Buffer.from(block.leaf, 'base64').toString())
      block.leaf = b64(new TextEncoder().encode(JSON.stringify(change(content))))
      const result = verifyExport(lines.map((l) => JSON.stringify(l)).join('\n'))
      expect(result.valid).toBe(false)
      expect(result.problems.join('\n')).toMatch(
        /block 1: its leaf (is not in canonical form|bytes do not decode)/,
      )
    }
  })

  it('catches an operator who rewrote history and re-signed it: by the trusted key, and by a checkpoint seen before', () => {
    const original = exportOf(4)
    const rewritten = exportOf(4, signer(), { height: 1, name: 'Rewritten' })
    // Self-consistent on its own keys…
    expect(verifyExport(rewritten.text).valid).toBe(true)
    // …but not under the key the member trusts, nor against the checkpoint they saw before.
    expect(verifyExport(rewritten.text, { keys: [original.key.vkey] }).valid).toBe(false)
    const sameKey = exportOf(4, original.key, { height: 1, name: 'Rewritten' })
    const seen = original.checkpoints[2]!.note
    const fork = verifyExport(sameKey.text, { keys: [original.key.vkey], trusted: seen })
    expect(fork.valid).toBe(false)
    expect(fork.problems.join('\n')).toMatch(
      /trusted checkpoint: its root is not the root of the first 3 blocks/,
    )
    // A rollback: the log is shorter than what was seen.
    const shorter = exportOf(2, original.key)
    expect(
      verifyExport(shorter.text, { trusted: original.checkpoints[3]!.note }).problems.join('\n'),
    ).toMatch(/beyond the log's 2/)
    expect(verifyExport(original.text, { trusted: seen }).valid).toBe(true)
  })
})

describe('circles-ledger verify', () => {
  it('prints the verify result and exits 0 only when everything holds', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'circles-cli-'))
    const good = exportOf(3)
    await writeFile(path.join(dir, 'good.jsonl'), good.text)
    await writeFile(path.join(dir, 'bad.jsonl'), good.text.replace(/"hash":"[0-9a-f]/, '"hash":"x'))
    await writeFile(path.join(dir, 'seen.txt'), good.checkpoints[1]!.note)
    let printed = ''
    const out = (text: string) => (printed += text)
    const file = (name: string) => path.join(dir, name)
    expect(
      await main(['verify', file('good.jsonl'), '--key', good.key.vkey, '--trusted', file('seen.txt')], out),
    ).toBe(0)
    expect(JSON.parse(printed)).toMatchObject({
      valid: true,
      message: 'The ledger is intact: every block checks out.',
      blockCount: 3,
    })
    printed = ''
    expect(await main(['verify', file('bad.jsonl')], out)).toBe(1)
    expect(JSON.parse(printed).valid).toBe(false)
    expect(await main(['nonsense'], out)).toBe(2)
    printed = ''
    expect(await main(['verify', file('missing.jsonl')], out)).toBe(2)
    expect(printed).toMatch(/cannot read .*missing\.jsonl: ENOENT/)
    expect(await main(['verify', file('good.jsonl'), '--trusted', file('missing.txt')], out)).toBe(2)
  })
})

describe('a malformed export', () => {
  it('is reported line by line instead of crashing the verifier', () => {
    const good = exportOf(2)
    const [header, ...rest] = good.text.trim().split('\n')
    for (const odd of ['null', '5', '"text"', '[]', '{"type":"block","height":"0"}', '{"type":"other"}']) {
      const result = verifyExport([header, odd, ...rest].join('\n'))
      expect(result.valid).toBe(false)
      expect(result.problems).toContain('line 2 is not a line of a ledger export')
    }
    expect(verifyExport('not json at all').problems).toContain('line 1 is not JSON')
  })
})

/**
 * Issue 23: blocks written before encoding v2 keep verifying. export-v1.jsonl was written by the code
 * that knew only v1 (three blocks, the third an automatic transfer, signed with a fixed test key), and
 * is frozen: if it stops verifying, old exports and old logs no longer do.
 */
describe('an export written before encoding v2', () => {
  const FROZEN = readFileSync(
    fileURLToPath(new URL('../testdata/golden/export-v1.jsonl', import.meta.url)),
    'utf8',
  )
  const seed = Uint8Array.from({ length: 32 }, (_, i) => i + 1)
  const key = {
    ...seedSigner('circles.example', seed),
    vkey: verifierKey('circles.example', publicKeyOf(seed)),
  }

  it('still verifies, in the function and on the command line', async () => {
    expect(verifyExport(FROZEN, { keys: [key.vkey] })).toMatchObject({
      valid: true,
      blockCount: 3,
      problems: [],
    })
    const dir = await mkdtemp(path.join(os.tmpdir(), 'circles-cli-'))
    await writeFile(path.join(dir, 'old.jsonl'), FROZEN)
    let printed = ''
    expect(
      await main(['verify', path.join(dir, 'old.jsonl'), '--key', key.vkey], (t) => (printed += t)),
    ).toBe(0)
    expect(JSON.parse(printed)).toMatchObject({ valid: true, blockCount: 3 })
  })

  it('verifies when the same log goes on with v2 blocks, trusting a checkpoint of the v1 part', () => {
    const lines = FROZEN.trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
    const old = lines.filter((l) => l.type === 'block') as { hash: string }[]
    const oldCheckpoints = lines.filter((l) => l.type === 'checkpoint') as { size: number; note: string }[]
    let frontier = emptyFrontier()
    for (const b of old) frontier = appendLeaf(frontier, Buffer.from(b.hash, 'hex'))
    let prev = old.at(-1)!.hash
    const added: object[] = []
    const checkpoints: object[] = []
    for (const [offset, reason] of (['REMOVED', 'LEFT'] as const).entries()) {
      const height = old.length + offset
      const content: BlockContent = {
        ...GOLDEN.content,
        v: 2,
        kind: 'AUTO_TRANSFER',
        reason,
        handoverId: null,
        height,
        prevHash: prev,
        first: false,
      }
      const hash = blockHash(content)
      added.push({ type: 'block', id: `v2-${height}`, height, hash, leaf: b64(blockBytes(content)) })
      frontier = appendLeaf(frontier, Buffer.from(hash, 'hex'))
      checkpoints.push({
        type: 'checkpoint',
        size: height + 1,
        note: signCheckpoint(
          { origin: ORIGIN, size: height + 1, rootHash: frontierRoot(frontier), extensions: [] },
          key,
        ),
      })
      prev = hash
    }
    const text = [
      ...lines.filter((l) => l.type !== 'checkpoint'),
      ...added,
      ...oldCheckpoints,
      ...checkpoints,
    ]
      .map((l) => JSON.stringify(l))
      .join('\n')
    const result = verifyExport(text, { keys: [key.vkey], trusted: oldCheckpoints.at(-1)!.note })
    expect(result).toMatchObject({ valid: true, blockCount: 5, problems: [] })
    // A v2 leaf relabelled as v1 (its reason dropped) is another leaf: it no longer matches its hash.
    const relabelled = text.replace(
      (added[0] as { leaf: string }).leaf,
      b64(
        new TextEncoder().encode(
          Buffer.from((added[0] as { leaf: string }).leaf, 'base64')
            .toString()
            .replace('"reason":"REMOVED",', '')
            .replace('"v":2', '"v":1'),
        ),
      ),
    )
    expect(verifyExport(relabelled, { keys: [key.vkey] }).problems.join('\n')).toMatch(
      /block 3: its hash is not the hash of its leaf/,
    )
  })
})

/**
 * Issue 24 (docs/decisions/0034): export-v3.jsonl holds a v1 block whose sender's name was redacted (no
 * leaf: its bytes held the name), a v2 block, a v3 block whose receiver's name and salt were erased and
 * a v3 block with a kept name; its checkpoints were signed before the erasure. It is written by
 * testdata/goldens-v3.ts and frozen.
 */
describe('an export after a member deleted their account', () => {
  const FROZEN = readFileSync(
    fileURLToPath(new URL('../testdata/golden/export-v3.jsonl', import.meta.url)),
    'utf8',
  )
  const lines = () =>
    FROZEN.trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
  const text = (ls: object[]) => ls.map((l) => JSON.stringify(l)).join('\n')

  it('is what the code writes, and verifies in the function and on the command line', async () => {
    const { exportV3, VKEY } = await import('../testdata/goldens-v3')
    expect(exportV3()).toBe(FROZEN)
    expect(FROZEN).not.toContain('Erika')
    expect(Buffer.from(FROZEN.replace(/"leaf":"[^"]*"/g, '')).toString()).not.toContain('Gelöscht')
    for (const leaf of FROZEN.matchAll(/"leaf":"([^"]*)"/g))
      expect(Buffer.from(leaf[1]!, 'base64').toString()).not.toContain('Erika')
    expect(verifyExport(FROZEN, { keys: [VKEY] })).toMatchObject({
      valid: true,
      blockCount: 4,
      redactedBlocks: 1,
      checkpoint: { size: 4 },
      problems: [],
    })
    const dir = await mkdtemp(path.join(os.tmpdir(), 'circles-cli-'))
    await writeFile(path.join(dir, 'erased.jsonl'), FROZEN)
    let printed = ''
    expect(await main(['verify', path.join(dir, 'erased.jsonl'), '--key', VKEY], (t) => (printed += t))).toBe(
      0,
    )
    expect(JSON.parse(printed)).toMatchObject({ valid: true, blockCount: 4, redactedBlocks: 1 })
  })

  it('checks a redacted block against the signed tree: a changed hash breaks the root and the next link', () => {
    const ls = lines()
    const redacted = ls.find((l) => l.redacted) as { hash: string }
    redacted.hash = 'e'.repeat(64)
    const result = verifyExport(text(ls))
    expect(result.valid).toBe(false)
    expect(result.failingBlocks.map((f) => f.index)).toEqual([0, 1])
    expect(result.problems.join('\n')).toMatch(/checkpoint 1: its root is not the root of the first 1 blocks/)
  })

  it('catches a wrong name beside a v3 block, and a v1 block relabelled as redacted', () => {
    const ls = lines()
    const v3 = ls.find((l) => l.height === 3) as { names: { to: { name: string } } }
    v3.names.to.name = 'Mallory'
    expect(verifyExport(text(ls)).failingBlocks.map((f) => f.index)).toEqual([3])
    // A full block cannot pass as redacted: a redacted line has no leaf, and its marker must fit.
    const again = lines()
    const v2 = again.find((l) => l.height === 1)!
    expect(
      verifyExport(text(again.map((l) => (l === v2 ? { ...l, redacted: ['from'] } : l)))).problems,
    ).toContain('line 3 is not a line of a ledger export')
  })
})

/**
 * Issue 26 (docs/decisions/0047): export-v4.jsonl holds a log written in every encoding, v1 to v4: the
 * v1, v2 and v3 golden blocks, then a LOAN, a LOAN_CHANGE and a RETURN. Written by
 * testdata/goldens-v4.ts and frozen.
 */
describe('an export with loans (encoding v4)', () => {
  const FROZEN = readFileSync(
    fileURLToPath(new URL('../testdata/golden/export-v4.jsonl', import.meta.url)),
    'utf8',
  )
  const lines = () =>
    FROZEN.trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
  const text = (ls: object[]) => ls.map((l) => JSON.stringify(l)).join('\n')

  it('is what the code writes, and verifies in the function and on the command line', async () => {
    const { exportV4, VKEY } = await import('../testdata/goldens-v4')
    expect(exportV4()).toBe(FROZEN)
    expect(verifyExport(FROZEN, { keys: [VKEY] })).toMatchObject({
      valid: true,
      blockCount: 6,
      redactedBlocks: 0,
      checkpoint: { size: 6 },
      problems: [],
    })
    const kinds = lines()
      .filter((l) => l.type === 'block')
      .map(
        (l) => JSON.parse(Buffer.from(l.leaf as string, 'base64').toString()) as { v: number; kind: string },
      )
      .map((c) => `${c.v}:${c.kind}`)
    expect(kinds).toEqual([
      '1:HANDOVER',
      '2:AUTO_TRANSFER',
      '3:HANDOVER',
      '4:LOAN',
      '4:LOAN_CHANGE',
      '4:RETURN',
    ])
    const dir = await mkdtemp(path.join(os.tmpdir(), 'circles-cli-'))
    await writeFile(path.join(dir, 'loans.jsonl'), FROZEN)
    let printed = ''
    expect(await main(['verify', path.join(dir, 'loans.jsonl'), '--key', VKEY], (t) => (printed += t))).toBe(
      0,
    )
    expect(JSON.parse(printed)).toMatchObject({ valid: true, blockCount: 6 })
  })

  it('catches a return date changed in a leaf, and a wrong name beside a v4 block', () => {
    const ls = lines()
    const change = ls.find((l) => l.height === 4) as { leaf: string }
    const bytes = Buffer.from(change.leaf, 'base64').toString().replace('2026-12-19', '2027-01-19')
    change.leaf = Buffer.from(bytes).toString('base64')
    const result = verifyExport(text(ls))
    expect(result.valid).toBe(false)
    expect(result.problems.join('\n')).toMatch(/block 4: its hash is not the hash of its leaf/)
    const again = lines()
    const back = again.find((l) => l.height === 5) as { names: { from: { name: string } } }
    back.names.from.name = 'Mallory'
    expect(verifyExport(text(again)).failingBlocks.map((f) => f.index)).toEqual([5])
  })
})

/**
 * Issue 28 (docs/decisions/0057): export-v5.jsonl is export-v4.jsonl's log going on with a v5 RETURN
 * that records condition photos and notes on both sides. Written by testdata/goldens-v5.ts and frozen.
 */
describe('an export with condition evidence (encoding v5)', () => {
  const FROZEN = readFileSync(
    fileURLToPath(new URL('../testdata/golden/export-v5.jsonl', import.meta.url)),
    'utf8',
  )

  it('is what the code writes, verifies, and the command line finds a recorded photo and not another', async () => {
    const { exportV5, PHOTOS } = await import('../testdata/goldens-v5')
    const { VKEY } = await import('../testdata/goldens-v4')
    expect(exportV5()).toBe(FROZEN)
    const result = verifyExport(FROZEN, { keys: [VKEY] })
    expect(result).toMatchObject({ valid: true, blockCount: 7, checkpoint: { size: 7 }, problems: [] })
    const dir = await mkdtemp(path.join(os.tmpdir(), 'circles-cli-'))
    const log = path.join(dir, 'log.jsonl')
    await writeFile(log, FROZEN)
    const [right, wrong] = [path.join(dir, 'lid.jpg'), path.join(dir, 'other.jpg')]
    await writeFile(right, PHOTOS.lender[0]!)
    await writeFile(wrong, `${PHOTOS.lender[0]!} `)
    let printed = ''
    expect(await main(['check-photo', log, right, '--key', VKEY], (t) => (printed += t))).toBe(0)
    expect(JSON.parse(printed)).toMatchObject({
      valid: true,
      photos: [{ recorded: true, recordedIn: [{ height: 6, side: 'receiver', photo: 1 }] }],
    })
    printed = ''
    expect(await main(['check-photo', log, right, wrong], (t) => (printed += t))).toBe(1)
    expect(JSON.parse(printed)).toMatchObject({
      valid: false,
      message: 'A picture is not one of the photos recorded in the ledger.',
      photos: [{ recorded: true }, { recorded: false, recordedIn: [] }],
    })
    // A photo digest changed in the leaf: the block's hash no longer holds, and nothing is looked up in it.
    const tampered = FROZEN.split('\n').map((line) => {
      if (!line.includes('"height":6,')) return line
      const l = JSON.parse(line) as { leaf: string }
      const bytes = Buffer.from(l.leaf, 'base64')
        .toString()
        .replace(/"photos":\["[0-9a-f]/, '"photos":["0')
      return JSON.stringify({ ...l, leaf: Buffer.from(bytes).toString('base64') })
    })
    await writeFile(log, tampered.join('\n'))
    printed = ''
    expect(await main(['check-photo', log, right], (t) => (printed += t))).toBe(1)
    expect(JSON.parse(printed).problems.join('\n')).toMatch(/block 6: its hash is not the hash of its leaf/)
    expect(await main(['check-photo', log], () => {})).toBe(2)
  })
})
