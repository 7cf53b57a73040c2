/**
 * Writes the issue 26 goldens (docs/decisions/0047): block-v4.json, a v4 LOAN block with its kept names
 * and salts, and export-v4.jsonl, an export of a log written in v1, v2, v3 and then v4 (a loan, its
 * change of date and its return). Deterministic like goldens-v3.ts (fixed salts, the fixed Ed25519 test
 * seed): the tests rebuild both and compare them with the frozen files.
 *
 *   npx tsx packages/ledger/testdata/goldens-v4.ts   # rewrites the files (only for a new golden)
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import {
  blockBytes,
  blockHash,
  GENESIS_PREV_HASH,
  nameCommitment,
  type BlockContent,
  type BlockContentV1,
  type BlockContentV2,
  type BlockContentV4,
  type KeptNames,
} from '../src/block'
import { circleOrigin, signCheckpoint } from '../src/checkpoint'
import { appendLeaf, emptyFrontier, frontierRoot } from '../src/merkle'
import { seedSigner } from '../src/note'
import { goldenV3, SEED, VKEY } from './goldens-v3'

export { VKEY }
const file = (name: string) => fileURLToPath(new URL(`./golden/${name}`, import.meta.url))
const read = <T>(name: string) => JSON.parse(readFileSync(file(name), 'utf8')) as T

const V1 = read<{ content: BlockContentV1; hash: string }>('block-v1.json')
const V2 = read<{ content: BlockContentV2; hash: string }>('block-v2.json')
const key = seedSigner('circles.example', SEED)
const SALT_LENDER = '00112233445566778899aabbccddeeff'
const SALT_BORROWER = 'ffeeddccbbaa99887766554433221100'
const LOAN_ID = '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d'

/** A v4 LOAN block that goes on from the v3 golden block (height 3): the v3 receiver lends the item. */
export function goldenV4() {
  const v3 = goldenV3()
  const names: KeptNames = {
    from: { name: v3.names.to.name, salt: SALT_LENDER },
    to: { name: 'Ben Okafor', salt: SALT_BORROWER },
  }
  const content: BlockContentV4 = {
    v: 4,
    kind: 'LOAN',
    circle: v3.content.circle,
    height: 3,
    prevHash: v3.hash,
    first: false,
    time: '2026-11-27T10:00:00.000Z',
    handoverId: '1c2d3e4f-5a6b-4c7d-8e9f-a0b1c2d3e4f5',
    item: v3.content.item,
    from: { id: v3.content.to.id, nameCommitment: nameCommitment(names.from.name!, SALT_LENDER) },
    to: {
      id: '44444444-5555-4666-8777-888888888888',
      nameCommitment: nameCommitment(names.to.name!, SALT_BORROWER),
    },
    ownership: 'COMPLETE',
    reason: null,
    loan: { id: LOAN_ID, dueAt: '2026-12-12T22:59:00.000Z' },
    commitments: { requesterComment: null, receiverComment: null, secretMessage: null },
  }
  return {
    content,
    names,
    canonical: new TextDecoder().decode(blockBytes(content)),
    hash: blockHash(content),
  }
}

/**
 * A log written across every encoding: the v1 and v2 golden blocks, the v3 golden block, the v4 LOAN
 * block, a LOAN_CHANGE (the date moved) and the RETURN, with a signed checkpoint after every block.
 */
export function exportV4(): string {
  const origin = circleOrigin('circles.example', V1.content.circle.id)
  const v3 = goldenV3()
  const loan = goldenV4()
  const written: { content: BlockContent; names?: KeptNames }[] = [
    { content: V1.content },
    { content: V2.content },
    { content: v3.content, names: v3.names },
    { content: loan.content, names: loan.names },
  ]
  const change: BlockContentV4 = {
    ...loan.content,
    kind: 'LOAN_CHANGE',
    height: 4,
    prevHash: loan.hash,
    time: '2026-12-10T08:00:00.000Z',
    handoverId: null,
    loan: { id: LOAN_ID, dueAt: '2026-12-19T22:59:00.000Z' },
  }
  written.push({ content: change, names: loan.names })
  const back: BlockContentV4 = {
    ...loan.content,
    kind: 'RETURN',
    height: 5,
    prevHash: blockHash(change),
    time: '2026-12-18T17:30:00.000Z',
    handoverId: '2d3e4f5a-6b7c-4d8e-9fa0-b1c2d3e4f5a6',
    from: loan.content.to,
    to: loan.content.from,
    loan: { id: LOAN_ID, dueAt: null },
  }
  written.push({ content: back, names: { from: loan.names.to, to: loan.names.from } })
  let prev = GENESIS_PREV_HASH
  const lines: object[] = [{ type: 'log', origin, keys: [VKEY] }]
  const checkpoints: object[] = []
  let frontier = emptyFrontier()
  for (const { content, names } of written) {
    if (content.prevHash !== prev) throw new Error(`golden chain broken at ${content.height}`)
    const hash = blockHash(content)
    prev = hash
    const id = `00000000-0000-4000-8000-00000000000${content.height}`
    const leaf = Buffer.from(blockBytes(content)).toString('base64')
    lines.push({ type: 'block', id, height: content.height, hash, leaf, ...(names ? { names } : {}) })
    frontier = appendLeaf(frontier, Buffer.from(hash, 'hex'))
    const size = content.height + 1
    checkpoints.push({
      type: 'checkpoint',
      size,
      note: signCheckpoint({ origin, size, rootHash: frontierRoot(frontier), extensions: [] }, key),
    })
  }
  return [...lines, ...checkpoints].map((l) => JSON.stringify(l)).join('\n') + '\n'
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(file('block-v4.json'), `${JSON.stringify(goldenV4(), null, 2)}\n`)
  writeFileSync(file('export-v4.jsonl'), exportV4())
  console.log('wrote block-v4.json and export-v4.jsonl')
}
