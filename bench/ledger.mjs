// Ledger benchmark, on PostgreSQL (DATABASE_URL): (a) handover confirmations per second through the
// real API against a raw locked append (FOR UPDATE + INSERT + UPDATE) on the same database with the same
// concurrency; (b) verify time and the server's extra memory for long chains, against reading the same
// rows with node-postgres alone. Written to bench/README.md. BENCH_LEDGER_SIZES=100000,1000000 by default.
import { createHash, randomUUID } from 'node:crypto'
import { readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { build } from 'esbuild'
import pg from 'pg'
import {
  children,
  freshPostgresDatabase,
  join,
  json,
  root,
  startApp,
  verifiedUser,
  writeSection,
} from './lib.mjs'

const WORKERS = 8
const PER_WORKER = 40
const SIZES = (process.env.BENCH_LEDGER_SIZES ?? '100000,1000000').split(',').map(Number)

if (!process.env.DATABASE_URL) {
  console.log('DATABASE_URL is not set: the ledger benchmark runs on PostgreSQL only; nothing measured')
  process.exit(0)
}

/** The ledger package, bundled for this script (it is TypeScript source). */
async function loadLedger() {
  const outfile = path.join(os.tmpdir(), `circles-ledger-${process.pid}.mjs`)
  await build({
    entryPoints: [path.join(root, 'packages/ledger/src/index.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile,
    logLevel: 'warning',
  })
  const ledger = await import(outfile)
  await rm(outfile)
  return ledger
}

const COLUMNS = [
  'circle_id',
  'height',
  'hash',
  'prev_hash',
  'version',
  'kind',
  'first',
  'time',
  'circle_name',
  'handover_id',
  'item_id',
  'item_name',
  'from_id',
  'from_name',
  'to_id',
  'to_name',
  'ownership',
  'requester_comment_commitment',
  'receiver_comment_commitment',
  'secret_message_commitment',
]
const rowOf = (c, hash) => [
  c.circle.id,
  c.height,
  hash,
  c.prevHash,
  c.v,
  c.kind,
  c.first,
  c.time,
  c.circle.name,
  c.handoverId,
  c.item.id,
  c.item.name,
  c.from.id,
  c.from.name,
  c.to.id,
  c.to.name,
  c.ownership,
  c.commitments.requesterComment,
  c.commitments.receiverComment,
  c.commitments.secretMessage,
]

async function insertRows(client, rows) {
  const params = []
  const tuples = rows.map((row) => {
    const start = params.length
    params.push(...row)
    return `(${row.map((_, i) => `$${start + i + 1}`).join(',')})`
  })
  await client.query(`INSERT INTO blocks (${COLUMNS.join(',')}) VALUES ${tuples.join(',')}`, params)
}

/** A valid chain of `size` blocks for the circle, inserted straight into the table. */
async function syntheticChain(ledger, client, circle, size) {
  let prevHash = ledger.GENESIS_PREV_HASH
  let batch = []
  const people = [randomUUID(), randomUUID()]
  for (let height = 0; height < size; height++) {
    const content = {
      v: 1,
      kind: 'HANDOVER',
      circle,
      height,
      prevHash,
      first: height === 0,
      time: new Date(Date.UTC(2026, 0, 1) + height * 1000).toISOString(),
      handoverId: randomUUID(),
      item: { id: randomUUID(), name: `Cordless drill ${height % 50}` },
      from: { id: people[height % 2], name: 'Otto Owner' },
      to: { id: people[(height + 1) % 2], name: 'Rita Receiver' },
      ownership: height % 3 ? 'PARTIAL' : 'COMPLETE',
      commitments: {
        requesterComment: height % 2 ? ledger.commitment(`note ${height}`, '00'.repeat(16)) : null,
        receiverComment: null,
        secretMessage: null,
      },
    }
    const hash = ledger.blockHash(content)
    batch.push(rowOf(content, hash))
    prevHash = hash
    if (batch.length === 1000) {
      await insertRows(client, batch)
      batch = []
    }
  }
  if (batch.length) await insertRows(client, batch)
  await client.query(
    'INSERT INTO ledger_heads (circle_id, size, head_hash) VALUES ($1, $2, $3) ON CONFLICT (circle_id) DO UPDATE SET size = $2, head_hash = $3',
    [circle.id, size, prevHash],
  )
}

const memory = async (pid, field) => {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  return Number(status.match(new RegExp(`${field}:\\s+(\\d+) kB`))[1]) / 1024
}

async function confirmations(base, owner) {
  const circle = (await json(`${base}/api/circles`, { name: 'Confirmations', description: '' }, owner.auth))
    .body.circle
  const workers = []
  for (let w = 0; w < WORKERS; w++) {
    const worker = await verifiedUser(base, app, `worker${w}@example.com`)
    await join(base, owner, circle.id, worker)
    const ids = []
    for (let i = 0; i < PER_WORKER; i++) {
      const item = await json(
        `${base}/api/items`,
        { name: `Thing ${w}-${i}`, circleId: circle.id },
        owner.auth,
      )
      const handover = await json(
        `${base}/api/handovers`,
        { itemId: item.body.item.id, receiverId: worker.user.id },
        owner.auth,
      )
      ids.push(handover.body.handover.id)
    }
    workers.push({ worker, ids })
  }
  const started = performance.now()
  await Promise.all(
    workers.map(async ({ worker, ids }) => {
      for (const id of ids) {
        const res = await fetch(`${base}/api/handovers/${id}/status`, {
          method: 'PUT',
          headers: { ...worker.auth, 'content-type': 'application/json' },
          body: JSON.stringify({ status: 'CONFIRMED' }),
        })
        if (!res.ok) throw new Error(`confirm failed: ${res.status} ${await res.text()}`)
      }
    }),
  )
  return (WORKERS * PER_WORKER) / ((performance.now() - started) / 1000)
}

/** The same number of appends, as bare SQL: lock the head, insert, move the head. */
async function rawAppends(url) {
  const pool = new pg.Pool({ connectionString: url, max: WORKERS })
  const circleId = randomUUID()
  await pool.query('INSERT INTO ledger_heads (circle_id) VALUES ($1)', [circleId])
  const started = performance.now()
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      const client = await pool.connect()
      try {
        for (let i = 0; i < PER_WORKER; i++) {
          await client.query('BEGIN')
          const { rows } = await client.query(
            'SELECT size, head_hash FROM ledger_heads WHERE circle_id = $1 FOR UPDATE',
            [circleId],
          )
          const { size, head_hash: prev } = rows[0]
          const hash = createHash('sha256').update(`${prev}${size}`).digest('hex')
          const id = randomUUID()
          await client.query(
            `INSERT INTO blocks (${COLUMNS.join(',')}) VALUES (${COLUMNS.map((_, i) => `$${i + 1}`).join(',')})`,
            [
              circleId,
              size,
              hash,
              prev,
              1,
              'HANDOVER',
              size === 0,
              new Date().toISOString(),
              'Raw',
              id,
              id,
              'Item',
              id,
              'A',
              id,
              'B',
              'PARTIAL',
              null,
              null,
              null,
            ],
          )
          await client.query('UPDATE ledger_heads SET size = $2, head_hash = $3 WHERE circle_id = $1', [
            circleId,
            size + 1,
            hash,
          ])
          await client.query('COMMIT')
        }
      } finally {
        client.release()
      }
    }),
  )
  const rate = (WORKERS * PER_WORKER) / ((performance.now() - started) / 1000)
  await pool.end()
  return rate
}

const database = await freshPostgresDatabase(process.env.DATABASE_URL)
const app = await startApp({ DATABASE_URL: database.url, PLAN_LIMITS: 'off' })
try {
  const { base } = app
  const ledger = await loadLedger()
  const owner = await verifiedUser(base, app)
  const raw = await rawAppends(database.url)
  const confirmed = await confirmations(base, owner)
  console.log(`confirmations ${confirmed.toFixed(0)}/s, raw locked append ${raw.toFixed(0)}/s`)

  const client = new pg.Client({ connectionString: database.url })
  await client.connect()
  const verifyRows = []
  for (const size of SIZES) {
    const created = await json(`${base}/api/circles`, { name: `Chain ${size}`, description: '' }, owner.auth)
    const circle = { id: created.body.circle.id, name: created.body.circle.name }
    await syntheticChain(ledger, client, circle, size)
    await client.query('VACUUM ANALYZE blocks')
    let started = performance.now()
    const read = await client.query('SELECT * FROM blocks WHERE circle_id = $1 ORDER BY height', [circle.id])
    const readSeconds = (performance.now() - started) / 1000
    if (read.rows.length !== size) throw new Error('baseline read a different chain')
    const pid = app.child.pid
    const before = await memory(pid, 'VmRSS')
    // Resets the peak (VmHWM) to the current size, so the peak below is the verify's own.
    await writeFile(`/proc/${pid}/clear_refs`, '5').catch(() => null)
    started = performance.now()
    const result = await json(`${base}/api/blockchain/verify/${circle.id}`, undefined, owner.auth)
    const seconds = (performance.now() - started) / 1000
    if (!result.body.valid || result.body.blockCount !== size)
      throw new Error(`verify: ${JSON.stringify(result.body).slice(0, 200)}`)
    const peak = await memory(pid, 'VmHWM')
    verifyRows.push({ size, seconds, readSeconds, extraMb: Math.max(0, peak - before) })
    console.log(
      `verify ${size}: ${seconds.toFixed(2)} s, +${(peak - before).toFixed(0)} MB; plain read ${readSeconds.toFixed(2)} s`,
    )
  }
  await client.end()

  const table = verifyRows
    .map(
      (r) =>
        `| ${r.size.toLocaleString('en')} | ${r.seconds.toFixed(2)} s | ${r.readSeconds.toFixed(2)} s | ${(r.seconds / r.readSeconds).toFixed(1)}× | ${r.extraMb.toFixed(0)} MB |`,
    )
    .join('\n')
  await writeSection(
    'ledger',
    `<!-- ledger:start -->
## Ledger (\`npm run bench:ledger\`, PostgreSQL)

${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, PostgreSQL from \`DATABASE_URL\`.

**Confirmations** (${WORKERS} receivers confirming ${PER_WORKER} handovers each at once, one circle, over
HTTP through the real API) against a raw locked append on the same database with the same
concurrency (\`SELECT … FOR UPDATE\` of the head, \`INSERT\` the block, \`UPDATE\` the head, no HTTP):

| | per second | ratio |
|---|---:|---:|
| raw locked append (baseline) | ${raw.toFixed(0)} | 1.00 |
| confirmations via the API | ${confirmed.toFixed(0)} | ${(confirmed / raw).toFixed(2)} |

Target: at least 0.5. A confirmation is also an HTTP request, a session check, the access checks, the
handover and item updates and the block's canonical encoding and hash, all in the one transaction.

**Verify** (\`GET /api/blockchain/verify/:circleId\` over HTTP on a synthetic valid chain) against
reading the same rows with node-postgres in one query (baseline); extra memory is the server's peak
resident memory during the call above its resident memory before:

| blocks | verify | plain read | ratio | extra memory |
|---:|---:|---:|---:|---:|
${table}

Target: 1,000,000 blocks in at most 3 s with at most 100 MB extra.
<!-- ledger:end -->`,
  )
} finally {
  await app.stop()
  await database.drop()
  for (const child of children) child.kill('SIGTERM')
}
