import { readFileSync } from 'node:fs'
import { mkdtemp, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ed25519 } from '@noble/curves/ed25519.js'
import { describe, expect, it } from 'vitest'
import { type BlockContent, type BlockContentV1, GENESIS_PREV_HASH, blockBytes, blockHash } from './block'
import { circleOrigin, signCheckpoint } from './checkpoint'
import { main } from './cli'
import { addSignatureLines, cosign, cosignerVerifierKey } from './cosignature'
import { createCosignatureCheck } from './cosignature-report'
import { appendLeaf, emptyFrontier, frontierRoot, merkleTree } from './merkle'
import { parseNote, publicKeyOf, seedSigner, verifierKey } from './note'
import { verifyDataExport } from './verify-data-export'
import { verifyExport } from './verify-export'

/** Issue 29 (docs/decisions/0064): exports carry their checkpoints' cosignatures, checked offline. */
const read = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../testdata/golden/${name}`, import.meta.url)), 'utf8')
const GOLDEN = JSON.parse(read('block-v1.json')) as { content: BlockContentV1 }
const ORIGIN = circleOrigin('circles.example', GOLDEN.content.circle.id)
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64')
const TIME = 1_790_000_000

function logKey() {
  const seed = ed25519.utils.randomSecretKey()
  return { ...seedSigner('circles.example', seed), vkey: verifierKey('circles.example', publicKeyOf(seed)) }
}

/** A witness (a member's device), with its cosigner verifier key. */
function witness(name: string) {
  const seed = ed25519.utils.randomSecretKey()
  const signer = seedSigner(name, seed)
  return { signer, vkey: cosignerVerifierKey(name, publicKeyOf(seed)) }
}

const cosignNote = (note: string, w: ReturnType<typeof witness>, time = TIME) =>
  cosign(parseNote(note).text, w.signer, time)

/** A line that names `w` but signs another text: what a witness of another history would have made. */
const foreignLine = (w: ReturnType<typeof witness>, note: string) =>
  cosign(parseNote(note).text.replace(/\n$/, '\nextra\n'), w.signer, TIME)

/** A circle export as the server writes it, each checkpoint with the given witnesses' lines. */
function exportOf(n: number, lines: (note: string, size: number) => string[], header = {}) {
  const key = logKey()
  const out: object[] = [{ type: 'log', origin: ORIGIN, keys: [key.vkey], ...header }]
  const checkpoints: object[] = []
  let prev = GENESIS_PREV_HASH
  let frontier = emptyFrontier()
  for (let height = 0; height < n; height++) {
    const content: BlockContent = {
      ...GOLDEN.content,
      height,
      prevHash: prev,
      first: height === 0,
      item: { ...GOLDEN.content.item, name: `Thing ${height}` },
    }
    const hash = blockHash(content)
    out.push({ type: 'block', id: `b${height}`, height, hash, leaf: b64(blockBytes(content)) })
    frontier = appendLeaf(frontier, Buffer.from(hash, 'hex'))
    const note = signCheckpoint(
      { origin: ORIGIN, size: height + 1, rootHash: frontierRoot(frontier), extensions: [] },
      key,
    )
    checkpoints.push({
      type: 'checkpoint',
      size: height + 1,
      note: addSignatureLines(note, lines(note, height + 1)),
    })
    prev = hash
  }
  return [...out, ...checkpoints].map((l) => JSON.stringify(l)).join('\n') + '\n'
}

describe('cosignatures in a circle export', () => {
  const anna = witness('circles.example/witness/anna/phone')
  const ben = witness('circles.example/witness/ben/laptop')
  const outsider = witness('witness.example/w1')

  it('reports each cosigner: valid, invalid and unknown lines; the ledger stays valid', () => {
    const text = exportOf(
      3,
      (note, size) => [
        cosignNote(note, anna, TIME + size),
        ...(size === 2 ? [foreignLine(ben, note)] : [cosignNote(note, ben)]),
        cosignNote(note, outsider),
      ],
      { cosigners: [anna.vkey, ben.vkey] },
    )
    const result = verifyExport(text)
    expect(result.valid).toBe(true)
    expect(result.problems).toEqual([])
    expect(result.cosignatures.problems).toEqual([
      'checkpoint 2: the cosignature of circles.example/witness/ben/laptop does not verify',
    ])
    const byName = new Map(result.cosignatures.cosigners.map((c) => [c.name, c]))
    expect(byName.get(anna.signer.name)).toEqual({
      name: anna.signer.name,
      key: anna.vkey,
      status: 'valid',
      valid: 3,
      invalid: 0,
      unknown: 0,
      largestSize: 3,
      newestTime: new Date((TIME + 3) * 1000).toISOString(),
    })
    expect(byName.get(ben.signer.name)).toMatchObject({
      status: 'invalid',
      valid: 2,
      invalid: 1,
      largestSize: 3,
    })
    // The outside witness's key is not in the export: its lines cannot be checked, and say nothing.
    expect(byName.get(outsider.signer.name)).toMatchObject({
      key: null,
      status: 'unknown',
      unknown: 3,
      valid: 0,
    })
  })

  it('checks against the keys the reader gives instead of the export’s', () => {
    const text = exportOf(2, (note) => [cosignNote(note, anna)], {
      cosigners: [witness(anna.signer.name).vkey],
    })
    // The export names another key under Anna's name (so another key id): her lines are unknown to it.
    expect(verifyExport(text).cosignatures.cosigners[0]).toMatchObject({
      key: null,
      status: 'unknown',
      unknown: 2,
    })
    expect(verifyExport(text, { cosigners: [anna.vkey] }).cosignatures.cosigners[0]).toMatchObject({
      status: 'valid',
      valid: 2,
    })
    const malformed = verifyExport(text, { cosigners: ['not a key'] })
    expect(malformed.valid).toBe(true)
    expect(malformed.cosignatures.problems[0]).toMatch(/a cosigner key is malformed/)
  })

  it('a bad cosignature never makes a tampered ledger valid, nor a valid one invalid', () => {
    const text = exportOf(2, (note) => [cosignNote(note, anna)], { cosigners: [anna.vkey] })
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    const block = lines.find((l) => l.type === 'block' && l.height === 1)
    const changed = JSON.parse(Buffer.from(block.leaf, 'base64').toString())
    block.leaf = b64(blockBytes({ ...changed, item: { ...changed.item, name: 'Thing X' } }))
    const tampered = lines.map((l) => JSON.stringify(l)).join('\n')
    expect(verifyExport(tampered).valid).toBe(false)
    expect(verifyExport(tampered).cosignatures.cosigners[0]).toMatchObject({ status: 'valid', valid: 2 })
  })

  it('old exports without cosignatures verify as before, with no cosigners', () => {
    for (const file of ['export-v1.jsonl', 'export-v3.jsonl', 'export-v4.jsonl', 'export-v5.jsonl']) {
      const result = verifyExport(read(file))
      expect(result.valid, file).toBe(true)
      expect(result.cosignatures, file).toEqual({ cosigners: [], problems: [] })
    }
  })

  it('circles-ledger verify prints the cosigners and exits 0 with a bad cosignature', async () => {
    const text = exportOf(
      2,
      (note, size) => [size === 1 ? foreignLine(anna, note) : cosignNote(note, anna)],
      {
        cosigners: [anna.vkey],
      },
    )
    const dir = await mkdtemp(path.join(os.tmpdir(), 'circles-cli-'))
    const file = path.join(dir, 'export.jsonl')
    await writeFile(file, text)
    let printed = ''
    expect(await main(['verify', file], (t) => (printed += t))).toBe(0)
    const output = JSON.parse(printed)
    expect(output.valid).toBe(true)
    expect(output.cosignatures.cosigners).toEqual([
      expect.objectContaining({ name: anna.signer.name, status: 'invalid', valid: 1, invalid: 1 }),
    ])
    expect(output.cosignatures.problems).toEqual([
      `checkpoint 1: the cosignature of ${anna.signer.name} does not verify`,
    ])
    printed = ''
    expect(await main(['verify', file, '--cosigner', witness('x').vkey], (t) => (printed += t))).toBe(0)
    expect(JSON.parse(printed).cosignatures.cosigners[0]).toMatchObject({
      key: null,
      status: 'unknown',
      unknown: 2,
    })
  })

  it('skips the log’s own and other plain signatures', () => {
    const check = createCosignatureCheck([anna.vkey])
    const key = logKey()
    const note = signCheckpoint(
      { origin: ORIGIN, size: 1, rootHash: new Uint8Array(32), extensions: [] },
      key,
    )
    check.add(note, 'checkpoint 1')
    check.add('not a note', 'checkpoint 2')
    expect(check.result()).toEqual({ cosigners: [], problems: [] })
  })
})

describe('cosignatures in a "Download my data" file', () => {
  it('reports the cosigners of each circle’s checkpoint, and verify-data prints them', async () => {
    const anna = witness('circles.example/witness/anna/phone')
    const key = logKey()
    const content: BlockContent = { ...GOLDEN.content, height: 0, first: true }
    const hash = blockHash(content)
    const tree = merkleTree([Uint8Array.from(Buffer.from(hash, 'hex'))])
    const signed = signCheckpoint({ origin: ORIGIN, size: 1, rootHash: tree.root(), extensions: [] }, key)
    const file = (cosigners: string[], line = cosignNote(signed, anna)) => ({
      format: 'circles-data',
      ledger: {
        keys: [key.vkey],
        circles: [
          {
            circleId: GOLDEN.content.circle.id,
            origin: ORIGIN,
            checkpoint: addSignatureLines(signed, [line]),
            cosigners,
            size: 1,
            blocks: [
              { id: 'b0', height: 0, hash, leaf: b64(blockBytes(content)), content, inclusionProof: [] },
            ],
          },
        ],
      },
    })
    const good = verifyDataExport(JSON.stringify(file([anna.vkey])))
    expect(good.valid).toBe(true)
    expect(good.cosignatures.cosigners).toEqual([
      expect.objectContaining({ name: anna.signer.name, status: 'valid', valid: 1, largestSize: 1 }),
    ])
    const bad = verifyDataExport(JSON.stringify(file([anna.vkey], foreignLine(anna, signed))))
    expect(bad.valid).toBe(true)
    expect(bad.cosignatures.problems).toEqual([
      `circle 1's checkpoint: the cosignature of ${anna.signer.name} does not verify`,
    ])
    const dir = await mkdtemp(path.join(os.tmpdir(), 'circles-cli-'))
    await writeFile(path.join(dir, 'data.json'), JSON.stringify(file([])))
    let printed = ''
    expect(
      await main(
        ['verify-data', path.join(dir, 'data.json'), '--cosigner', anna.vkey],
        (t) => (printed += t),
      ),
    ).toBe(0)
    expect(JSON.parse(printed).cosignatures.cosigners[0]).toMatchObject({ status: 'valid', valid: 1 })
  })
})
