/**
 * Writes the issue 28 goldens (docs/decisions/0057): block-v5.json, a v5 RETURN block with condition
 * evidence (the borrower's two photos and note, the lender's photo and note), and export-v5.jsonl, the
 * v1–v4 log of export-v4.jsonl going on with that block. Deterministic like goldens-v4.ts (fixed salts,
 * fixed "photo" bytes, the fixed Ed25519 test seed): the tests rebuild both and compare them with the
 * frozen files.
 *
 *   npx tsx packages/ledger/testdata/goldens-v5.ts   # rewrites the files (only for a new golden)
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { blockBytes, blockHash, noteCommitment, type BlockContentV4, type BlockContentV5 } from '../src/block'
import { circleOrigin, signCheckpoint } from '../src/checkpoint'
import { appendLeaf, emptyFrontier, frontierRoot } from '../src/merkle'
import { seedSigner } from '../src/note'
import { SEED } from './goldens-v3'
import { exportV4 } from './goldens-v4'

const file = (name: string) => fileURLToPath(new URL(`./golden/${name}`, import.meta.url))

/** Stand-ins for the stored pictures: the digest is of whatever bytes the server serves. */
export const PHOTOS = {
  borrower: ['golden photo 1: the drill, left side', 'golden photo 2: the drill, case open'],
  lender: ['golden photo 3: a dent on the lid'],
}
export const NOTES = {
  from: { text: 'Works fine, battery charged.', salt: '0f1e2d3c4b5a69788796a5b4c3d2e1f0' },
  to: { text: 'Received with a dent on the lid.', salt: 'f0e1d2c3b4a5968778695a4b3c2d1e0f' },
}
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')

/** The v4 export's blocks, read back from its lines. */
function v4Log() {
  const lines = exportV4()
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
  const blocks = lines.filter((l) => l.type === 'block')
  return { lines, blocks }
}

/**
 * A v5 RETURN that goes on from the v4 export's RETURN (height 6): the borrower hands the item back
 * again after a second loan, with photos and a note; the lender adds a photo and a note of their own.
 */
export function goldenV5() {
  const { blocks } = v4Log()
  const last = blocks.at(-1)!
  const back = JSON.parse(Buffer.from(last.leaf as string, 'base64').toString('utf8')) as BlockContentV4
  const content: BlockContentV5 = {
    ...back,
    v: 5,
    height: 6,
    prevHash: last.hash as string,
    time: '2027-01-09T16:45:00.000Z',
    handoverId: '3e4f5a6b-7c8d-4e9f-a0b1-c2d3e4f5a6b7',
    loan: { id: '8b7c6d5e-4f3a-4b2c-8d1e-0f9a8b7c6d5e', dueAt: null },
    evidence: {
      asDescribed: false,
      from: { note: noteCommitment(NOTES.from.text, NOTES.from.salt), photos: PHOTOS.borrower.map(sha256) },
      to: { note: noteCommitment(NOTES.to.text, NOTES.to.salt), photos: PHOTOS.lender.map(sha256) },
    },
  }
  return {
    content,
    names: last.names,
    notes: NOTES,
    canonical: new TextDecoder().decode(blockBytes(content)),
    hash: blockHash(content),
  }
}

/** export-v4.jsonl's log with the v5 block appended, every checkpoint re-signed over the longer log. */
export function exportV5(): string {
  const { lines, blocks } = v4Log()
  const origin = circleOrigin('circles.example', (goldenV5().content.circle as { id: string }).id)
  const key = seedSigner('circles.example', SEED)
  const v5 = goldenV5()
  const all = [
    ...blocks,
    {
      type: 'block',
      id: '00000000-0000-4000-8000-000000000006',
      height: 6,
      hash: v5.hash,
      leaf: Buffer.from(blockBytes(v5.content)).toString('base64'),
      names: v5.names,
    },
  ]
  let frontier = emptyFrontier()
  const checkpoints = all.map((block, i) => {
    frontier = appendLeaf(frontier, Buffer.from(block.hash as string, 'hex'))
    const size = i + 1
    return {
      type: 'checkpoint',
      size,
      note: signCheckpoint({ origin, size, rootHash: frontierRoot(frontier), extensions: [] }, key),
    }
  })
  return [lines[0], ...all, ...checkpoints].map((l) => JSON.stringify(l)).join('\n') + '\n'
}

/** Read back, for the tests: the frozen file. */
export const readGolden = (name: string) => readFileSync(file(name), 'utf8')

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(file('block-v5.json'), `${JSON.stringify(goldenV5(), null, 2)}\n`)
  writeFileSync(file('export-v5.jsonl'), exportV5())
  console.log('wrote block-v5.json and export-v5.jsonl')
}
