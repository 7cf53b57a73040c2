// Ledger proofs and checkpoints (issue 14). (a) For trees of 1e3 to 1e6 blocks: proof sizes against
// the RFC 9162 bounds, the time the server needs to build a page of proofs from the leaf hashes, and
// the time a member's device needs to check a checkpoint and a page of proofs — the ledger pages' own
// check (verifyCircle: signature, consistency with the remembered checkpoint, 50 blocks' hashes and
// inclusion), in Node and in Chromium. (b) On PostgreSQL (DATABASE_URL), the append rate with the tree
// frontier and a signed checkpoint against the plain locked append, in the same run. (c) On PostgreSQL,
// the server's inclusion and consistency proofs from tiles at 1,000,000 blocks against a plain indexed
// read of one row (ledger-proofs-server.mjs, issue 29).
// BENCH_PROOF_SIZES=1000,10000,100000,1000000 by default. Written to bench/README.md.
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { build } from 'esbuild'
import pg from 'pg'
import { chromium } from 'playwright-core'
import { children, freshPostgresDatabase, root, startApp, writeSection } from './lib.mjs'
import { PROOF_TREE_SIZE, serverProofTimes } from './ledger-proofs-server.mjs'

const SIZES = (process.env.BENCH_PROOF_SIZES ?? '1000,10000,100000,1000000').split(',').map(Number)
const SHOWN = 50
const RUNS = 30
const WORKERS = 8
const PER_WORKER = 40
const ROUNDS = 3
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** TypeScript `contents` (importing from the repository's root), bundled and imported; and its source. */
async function bundle(contents, platform) {
  const outfile = path.join(os.tmpdir(), `circles-ledger-proofs-${process.pid}-${platform}.mjs`)
  await build({
    stdin: { contents, resolveDir: root, loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform,
    target: 'es2022',
    outfile,
    logLevel: 'warning',
  })
  const source = await readFile(outfile, 'utf8')
  const loaded = await import(outfile)
  await rm(outfile)
  return { ...loaded, source }
}

/**
 * The ledger package and the web app's verifyCircle, for Node and for the browser page, with the
 * timing loop both run (so both measure the same code).
 */
const device = () =>
  bundle(
    `
        import * as ledger from './packages/ledger/src/index.ts'
        import { verifyCircle } from './apps/web/src/lib/ledger-verification/verify-circle.ts'
        /** Times verifyCircle over a fixture (server answers and device memory held in memory). */
        async function time(f, runs) {
          const deps = {
            keys: f.keys,
            checkpoint: async () => f.note,
            consistency: async () => ({ proof: f.consistency }),
            inclusions: async () => ({ proofs: f.inclusions }),
            remembered: async () => f.remembered,
            remember: async () => {},
          }
          const times = []
          for (let run = 0; run < runs; run++) {
            const started = performance.now()
            const result = await verifyCircle(f.circleId, f.blocks, deps)
            times.push(performance.now() - started)
            if (result.state !== 'verified') throw new Error('not verified: ' + result.reason)
          }
          return times
        }
        globalThis.circlesBench = { ledger, verifyCircle, time }
        export { ledger, time }
      `,
    'browser',
  )

/** The server's own checkpoint signer (node:crypto). */
const serverSigner = async () =>
  (
    await bundle(`export { ledgerSigner } from './apps/server/src/lib/ledger-signer.ts'`, 'node')
  ).ledgerSigner('https://bench.example', randomBytes(32).toString('hex'))

const ceilLog2 = (n) => Math.ceil(Math.log2(n))
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

/** A shown block at `height`: real content, so the check hashes it as the ledger page does. */
const contentAt = (circle, height) => ({
  v: 1,
  kind: 'HANDOVER',
  circle,
  height,
  prevHash: createHash('sha256').update(String(height)).digest('hex'),
  first: height === 0,
  time: new Date(Date.UTC(2026, 0, 1) + height * 1000).toISOString(),
  handoverId: randomUUID(),
  item: { id: randomUUID(), name: `Cordless drill ${height % 50}` },
  from: { id: randomUUID(), name: 'Otto Owner' },
  to: { id: randomUUID(), name: 'Rita Receiver' },
  ownership: 'COMPLETE',
  commitments: { requesterComment: null, receiverComment: null, secretMessage: null },
})

/**
 * A tree of `size` leaves (random, except the 50 shown blocks), what the server would answer for a
 * ledger page of those blocks, and the checkpoint the device remembers from an earlier visit (90 %).
 */
function fixture(ledger, signer, size) {
  const circle = { id: randomUUID(), name: 'Bench' }
  const random = randomBytes(32 * size)
  const leaves = Array.from({ length: size }, (_, i) => random.subarray(32 * i, 32 * i + 32))
  const picked = new Set([0, size - 1])
  while (picked.size < Math.min(SHOWN, size)) picked.add(Math.floor(Math.random() * size))
  const blocks = [...picked]
    .sort((a, b) => a - b)
    .map((height) => {
      const content = contentAt(circle, height)
      const hash = ledger.blockHash(content)
      leaves[height] = ledger.hexToHash(hash)
      return { id: randomUUID(), hash, content }
    })

  const seen = Math.max(1, Math.floor(size * 0.9) - 3)
  let started = performance.now()
  const tree = ledger.merkleTree(leaves)
  const inclusions = blocks.map(({ content }) => ({
    index: content.height,
    proof: tree.inclusionProof(content.height, size).map(ledger.hashToHex),
  }))
  const consistency = tree.consistencyProof(seen, size).map(ledger.hashToHex)
  const serverMs = performance.now() - started

  const origin = ledger.circleOrigin('bench.example', circle.id)
  const sign = (n) =>
    ledger.signCheckpoint({ origin, size: n, rootHash: tree.root(n), extensions: [] }, signer)
  return {
    circleId: circle.id,
    keys: [ledger.verifierKey(signer.name, signer.publicKey)],
    note: sign(size),
    consistency,
    inclusions,
    blocks,
    remembered: {
      circleId: circle.id,
      note: sign(seen),
      size: seen,
      rootHash: ledger.hashToHex(tree.root(seen)),
      verifiedAt: new Date().toISOString(),
    },
    stats: {
      size,
      serverMs,
      inclusionMax: Math.max(...inclusions.map((p) => p.proof.length)),
      consistency: consistency.length,
    },
  }
}

async function proofs(ledger, time, source) {
  const signer = ledger.seedSigner('bench.example', new Uint8Array(randomBytes(32)))
  const browser = await chromium.launch({ executablePath: CHROMIUM })
  const page = await browser.newPage()
  await page.goto('about:blank')
  await page.addScriptTag({ content: source, type: 'module' })
  await page.waitForFunction(() => 'circlesBench' in globalThis)
  const rows = []
  try {
    for (const size of SIZES) {
      const f = fixture(ledger, signer, size)
      const node = await time(f, RUNS)
      const { stats, ...data } = f
      const chrome = await page.evaluate(({ data, runs }) => globalThis.circlesBench.time(data, runs), {
        data,
        runs: RUNS,
      })
      const row = { ...stats, node, chrome }
      rows.push(row)
      console.log(
        `${size}: inclusion ≤ ${stats.inclusionMax} (bound ${ceilLog2(size)}), consistency ${stats.consistency} (bound ${ceilLog2(size) + 1}); ` +
          `server ${stats.serverMs.toFixed(0)} ms; check node ${median(node).toFixed(1)} ms, chromium ${median(chrome).toFixed(1)} ms (first ${chrome[0].toFixed(1)} ms)`,
      )
    }
  } finally {
    await browser.close()
  }
  return rows
}

/** One round of WORKERS × PER_WORKER appends to a new circle; `signed` adds what the server adds. */
async function appends(pool, ledger, signer, signed) {
  const circleId = randomUUID()
  const origin = ledger.circleOrigin('bench.example', circleId)
  await pool.query('INSERT INTO ledger_heads (circle_id) VALUES ($1)', [circleId])
  const started = performance.now()
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      const client = await pool.connect()
      try {
        for (let i = 0; i < PER_WORKER; i++) {
          await client.query('BEGIN')
          const { rows } = await client.query(
            'SELECT size, head_hash, frontier FROM ledger_heads WHERE circle_id = $1 FOR UPDATE',
            [circleId],
          )
          const { size, head_hash: prev, frontier } = rows[0]
          const hash = createHash('sha256').update(`${prev}${size}`).digest('hex')
          const id = randomUUID()
          await client.query(
            `INSERT INTO blocks (circle_id, height, hash, prev_hash, version, kind, first, time, circle_name,
               handover_id, item_id, item_name, from_id, from_name, to_id, to_name, ownership)
             VALUES ($1, $2, $3, $4, 1, 'HANDOVER', $5, $6, 'Raw', $7, $7, 'Item', $7, 'A', $7, 'B', 'PARTIAL')`,
            [circleId, size, hash, prev, size === 0, new Date().toISOString(), id],
          )
          if (signed) {
            const next = ledger.appendLeaf(
              { size, nodes: frontier.map(ledger.hexToHash) },
              ledger.hexToHash(hash),
            )
            const note = ledger.signCheckpoint(
              { origin, size: next.size, rootHash: ledger.frontierRoot(next), extensions: [] },
              signer,
            )
            await client.query(
              'UPDATE ledger_heads SET size = $2, head_hash = $3, frontier = $4, checkpoint = $5 WHERE circle_id = $1',
              [circleId, size + 1, hash, JSON.stringify(next.nodes.map(ledger.hashToHex)), note],
            )
            await client.query('INSERT INTO ledger_checkpoints (circle_id, size, note) VALUES ($1, $2, $3)', [
              circleId,
              size + 1,
              note,
            ])
          } else {
            await client.query('UPDATE ledger_heads SET size = $2, head_hash = $3 WHERE circle_id = $1', [
              circleId,
              size + 1,
              hash,
            ])
          }
          await client.query('COMMIT')
        }
      } finally {
        client.release()
      }
    }),
  )
  return (WORKERS * PER_WORKER) / ((performance.now() - started) / 1000)
}

/** Plain and signed rounds taken in turn (the machine's noise falls on both); the medians. */
async function appendRates(ledger) {
  if (!process.env.DATABASE_URL) return null
  const database = await freshPostgresDatabase(process.env.DATABASE_URL)
  // The built server migrates the fresh database; the appends then run as bare SQL.
  const app = await startApp({ DATABASE_URL: database.url, PLAN_LIMITS: 'off' })
  const pool = new pg.Pool({ connectionString: database.url, max: WORKERS })
  const signer = await serverSigner()
  const plain = []
  const signed = []
  try {
    for (let round = 0; round < ROUNDS; round++) {
      plain.push(await appends(pool, ledger, signer, false))
      signed.push(await appends(pool, ledger, signer, true))
    }
  } finally {
    await pool.end()
    await app.stop()
    await database.drop()
  }
  const result = { plain: median(plain), signed: median(signed) }
  console.log(`appends: plain ${result.plain.toFixed(0)}/s, with checkpoint ${result.signed.toFixed(0)}/s`)
  return result
}

try {
  const { ledger, time, source } = await device()
  const rows = await proofs(ledger, time, source)
  const rates = await appendRates(ledger)
  const served = await serverProofTimes(ledger, median)

  const ms = (value) => `${value.toFixed(1)} ms`
  const sizeTable = rows
    .map(
      (r) =>
        `| ${r.size.toLocaleString('en')} | ${r.inclusionMax} / ${ceilLog2(r.size)} | ${r.consistency} / ${ceilLog2(r.size) + 1} | ${r.serverMs.toFixed(0)} ms |`,
    )
    .join('\n')
  const checkTable = rows
    .map(
      (r) =>
        `| ${r.size.toLocaleString('en')} | ${ms(median(r.node))} | ${ms(median(r.chrome))} | ${ms(r.chrome[0])} | ${ms(Math.max(...r.chrome))} |`,
    )
    .join('\n')
  const appendSection = rates
    ? `| | appends per second | ratio |
|---|---:|---:|
| locked append, no tree (baseline) | ${rates.plain.toFixed(0)} | 1.00 |
| with frontier update, Ed25519-signed checkpoint and its row | ${rates.signed.toFixed(0)} | ${(rates.signed / rates.plain).toFixed(2)} |`
    : '_Not measured in this run: `DATABASE_URL` was not set (PostgreSQL only)._'
  const ratio = (value) => (value / served.row).toFixed(2)
  const servedSection = served
    ? `| | median | ratio to the row read |
|---|---:|---:|
| one block row by its index (baseline) | ${served.row.toFixed(2)} ms | 1.00 |
| inclusion proof from tiles | ${served.inclusion.toFixed(2)} ms | ${ratio(served.inclusion)} |
| consistency proof from tiles | ${served.consistency.toFixed(2)} ms | ${ratio(served.consistency)} |`
    : '_Not measured in this run: `DATABASE_URL` was not set (PostgreSQL only)._'

  await writeSection(
    'ledger-proofs',
    `<!-- ledger-proofs:start -->
## Ledger proofs and checkpoints (\`npm run bench:ledger-proofs\`)

${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, Node ${process.versions.node}, Chromium from \`${CHROMIUM}\`.

**Proof sizes** for a page of ${SHOWN} blocks (the first, the last and random ones) in a tree of n
blocks, the largest inclusion proof and the consistency proof from the checkpoint the device saw at 90 %,
against the RFC 9162 bounds (target: inclusion at most ⌈log2 n⌉, consistency at most ⌈log2 n⌉ + 1);
and the time the server takes to build those ${SHOWN + 1} proofs from the n leaf hashes (one pass, without
reading them from the database):

| blocks | inclusion / bound | consistency / bound | server build |
|---:|---:|---:|---:|
${sizeTable}

This build from the leaves is linear in n; since issue 29 the server builds proofs from tiles instead
(below), and the browser builds its own from tiles too (docs/decisions/0060).

**Proofs from tiles on the server, PostgreSQL** (issue 29): a circle of ${PROOF_TREE_SIZE.toLocaleString('en')} blocks
and its tiles in the database; an inclusion proof of a random block, and a consistency proof from a random
earlier size, built as the proof endpoints build them (the repository's \`readTiles\`, one query for the
batch of tiles, then the hashing), against a plain indexed read of one block row by its height, through the
same drizzle pool; ${served?.samples ?? 0} samples each, taken in turn, medians. (The endpoints add the
membership check, the head and the checkpoint row: three more indexed reads. The hashing here is the
browser build's SHA-256, @noble/hashes; the server hashes with node:crypto, faster.) Target: at most 5 ms.

${servedSection}

**The device's check** of a ledger page: the ledger pages' own \`verifyCircle\` (the signed checkpoint's
Ed25519 signature, consistency with the remembered checkpoint, each of the ${SHOWN} blocks' hash recomputed
from its content and its inclusion proof), with the server's answers already in memory; median of
${RUNS} runs, then the first (cold) and the slowest run in Chromium. Target: at most 50 ms in the browser.

| blocks | Node (median) | Chromium (median) | Chromium first | Chromium slowest |
|---:|---:|---:|---:|---:|
${checkTable}

**Appends on PostgreSQL** (${WORKERS} connections × ${PER_WORKER} appends to one circle, bare SQL, median of
${ROUNDS} rounds each, taken in turn): the locked append alone (lock the head, insert the block, move
the head) against the same with what issue 14 adds to every append (read the frontier, add the leaf,
sign the new checkpoint with the server's signer, store the frontier and checkpoint on the head and the checkpoint's row):

${appendSection}
<!-- ledger-proofs:end -->`,
  )
} finally {
  for (const child of children) child.kill('SIGTERM')
}
