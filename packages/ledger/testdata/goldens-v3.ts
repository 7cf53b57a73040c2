/**
 * Writes the issue 24 goldens (docs/decisions/0034): block-v3.json, a v3 block with its kept names and
 * salts, and export-v3.jsonl, an export in the format with names beside v3 blocks and redacted v1/v2
 * blocks. Everything here is deterministic (fixed salts, the fixed Ed25519 test seed), so the tests
 * rebuild both and compare them with the frozen files: the code still writes what old exports hold.
 *
 *   npx tsx packages/ledger/testdata/goldens-v3.ts   # rewrites the files (only for a new golden)
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
  type BlockContentV3,
  type KeptNames,
} from '../src/block'
import { circleOrigin, signCheckpoint } from '../src/checkpoint'
import { appendLeaf, emptyFrontier, frontierRoot } from '../src/merkle'
import { publicKeyOf, seedSigner, verifierKey } from '../src/note'

const file = (name: string) => fileURLToPath(new URL(`./golden/${name}`, import.meta.url))
const read = <T>(name: string) => JSON.parse(readFileSync(file(name), 'utf8')) as T

const V1 = read<{ content: BlockContentV1 }>('block-v1.json').content
const V2 = read<{ content: BlockContentV2; hash: string }>('block-v2.json')
export const SEED = Uint8Array.from({ length: 32 }, (_, i) => i + 1)
const key = seedSigner('circles.example', SEED)
export const VKEY = verifierKey('circles.example', publicKeyOf(SEED))
const SALT_FROM = '0f1e2d3c4b5a69788796a5b4c3d2e1f0'
const SALT_TO = 'a0b1c2d3e4f5061728394a5b6c7d8e9f'

/** A v3 block that goes on from the v2 golden block (height 2), with its names kept beside it. */
export function goldenV3() {
  const names: KeptNames = {
    from: { name: V2.content.to.name, salt: SALT_FROM },
    to: { name: 'Ana Díaz', salt: SALT_TO },
  }
  const content: BlockContentV3 = {
    v: 3,
    kind: 'HANDOVER',
    circle: V2.content.circle,
    height: 2,
    prevHash: V2.hash,
    first: false,
    time: '2026-11-26T08:15:00.000Z',
    handoverId: '0b1c2d3e-4f5a-4b6c-8d7e-8f9a0b1c2d3e',
    item: V2.content.item,
    from: { id: V2.content.to.id, nameCommitment: nameCommitment(names.from.name!, SALT_FROM) },
    to: { id: '99999999-8888-4777-8666-555555555555', nameCommitment: nameCommitment(names.to.name!, SALT_TO) },
    ownership: 'COMPLETE',
    reason: null,
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
 * A circle's export after a member deleted their account: a v1 block whose `from` was redacted, a v2
 * block, a v3 block whose `to` name was erased (name and salt gone), a v3 block with both names kept,
 * and a signed checkpoint after every block (signed when the blocks were written, before any erasure).
 */
export function exportV3(): string {
  const origin = circleOrigin('circles.example', V1.circle.id)
  const erased = '22222222-3333-4444-8555-666666666666'
  const written: { content: BlockContent; names?: KeptNames; redacted?: ('from' | 'to')[] }[] = []
  let prev = GENESIS_PREV_HASH
  const at = (height: number) => ({ height, prevHash: prev, first: height === 0 })
  const push = (entry: (typeof written)[number]) => {
    written.push(entry)
    prev = blockHash(entry.content)
  }
  push({ content: { ...V1, ...at(0), from: { id: erased, name: 'Erika Gelöscht' } }, redacted: ['from'] })
  push({ content: { ...V2.content, ...at(1), time: '2026-11-25T09:30:00.000Z' } })
  const v3 = goldenV3().content
  const kept = (name: string, salt: string) => ({
    name,
    salt,
    commitment: nameCommitment(name, salt),
  })
  const a = kept('Zoë Müller', SALT_FROM)
  const b = kept('Erika Gelöscht', SALT_TO)
  push({
    content: { ...v3, ...at(2), from: { id: V1.from.id, nameCommitment: a.commitment }, to: { id: erased, nameCommitment: b.commitment } },
    names: { from: { name: a.name, salt: a.salt }, to: { name: null, salt: null } },
  })
  const c = kept('李 雷', SALT_TO)
  push({
    content: {
      ...v3,
      ...at(3),
      time: '2026-11-26T09:00:00.000Z',
      from: { id: erased, nameCommitment: b.commitment },
      to: { id: V1.to.id, nameCommitment: c.commitment },
    },
    names: { from: { name: null, salt: null }, to: { name: c.name, salt: c.salt } },
  })
  const lines: object[] = [{ type: 'log', origin, keys: [VKEY] }]
  const checkpoints: object[] = []
  let frontier = emptyFrontier()
  for (const { content, names, redacted } of written) {
    const hash = blockHash(content)
    const id = `00000000-0000-4000-8000-00000000000${content.height}`
    if (redacted) {
      // The server serves the stored row with the redacted names null; the leaf bytes cannot be built.
      const shown = { ...content } as BlockContentV1
      for (const side of redacted) shown[side] = { id: shown[side].id, name: null }
      lines.push({ type: 'block', id, height: content.height, hash, redacted, content: shown })
    } else {
      const leaf = Buffer.from(blockBytes(content)).toString('base64')
      lines.push({ type: 'block', id, height: content.height, hash, leaf, ...(names ? { names } : {}) })
    }
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
  writeFileSync(file('block-v3.json'), `${JSON.stringify(goldenV3(), null, 2)}\n`)
  writeFileSync(file('export-v3.jsonl'), exportV3())
  console.log('wrote block-v3.json and export-v3.jsonl')
}
