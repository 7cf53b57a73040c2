// The browser's check of a ledger page from tiles (issue 29, docs/decisions/0060), in Chromium against
// the built server on loopback, PostgreSQL (DATABASE_URL): a circle of 1,000,000 blocks (the older ones
// generated in the database, the newest 50 real handovers), a member's device checking those 50 blocks
// with the web app's own verifyCircle and tileProofs — the signed checkpoint that came with the page's
// blocks (docs/decisions/0066), consistency with a checkpoint remembered 25 blocks earlier, 50 audit
// paths — from a cold tile store (IndexedDB emptied) and a warm one, against one plain API round trip
// (the checkpoint) in the same page. Written to bench/README.md.
import { createHash } from 'node:crypto'
import { readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { build } from 'esbuild'
import pg from 'pg'
import { chromium } from 'playwright-core'
import {
  children,
  freshPostgresDatabase,
  insertGeneratedBlocks,
  join,
  json,
  root,
  startApp,
  verifiedUser,
  writeSection,
} from './lib.mjs'

const SIZE = Number(process.env.BENCH_TILES_SIZE ?? 1_000_000)
const SHOWN = 50
const RUNS = 20
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

if (!process.env.DATABASE_URL) {
  console.log(
    'DATABASE_URL is not set: the browser tiles benchmark runs on PostgreSQL only; nothing measured',
  )
  process.exit(0)
}

/** The web app's check, bundled for the page with a timing loop (cold: the tile store emptied first). */
async function pageScript() {
  const outfile = path.join(os.tmpdir(), `circles-ledger-tiles-browser-${process.pid}.js`)
  await build({
    stdin: {
      contents: `
        import { openCheckpoint, parseVerifierKey, hashToHex } from './packages/ledger/src/index.ts'
        import { verifyCircle } from './apps/web/src/lib/ledger-verification/verify-circle.ts'
        import { tileProofs } from './apps/web/src/lib/ledger-verification/tile-proofs.ts'
        import { clearKeptTiles, keepTiles, keptTiles, tileKey } from './apps/web/src/lib/ledger-verification/tile-cache.ts'
        const get = async (f, path) => {
          const res = await fetch('/api/ledger/' + f.circleId + path, {
            headers: { authorization: f.auth }, cache: 'no-store' })
          if (!res.ok) throw new Error(path + ': ' + res.status)
          return res
        }
        async function time(f, blocks, runs, warm) {
          const { checkpoint } = openCheckpoint(f.remembered, f.keys.map(parseVerifierKey))
          const remembered = { circleId: f.circleId, note: f.remembered, size: checkpoint.size,
            rootHash: hashToHex(checkpoint.rootHash), verifiedAt: new Date().toISOString() }
          // As the app: one set of calls per check; the checkpoint is the one the blocks came with.
          const depsOfOneCheck = (delivered) => ({
            keys: f.keys,
            checkpoint: async () => (await (await get(f, '/checkpoint')).json()).checkpoint,
            delivered,
            ...tileProofs({
              fetchTile: async (_c, path) => new Uint8Array(await (await get(f, '/' + path)).arrayBuffer()),
              kept: keptTiles, keep: keepTiles, keyOf: tileKey }),
            remembered: async () => remembered,
            remember: async () => {},
          })
          const times = { check: [], roundTrip: [], page: [] }
          for (let run = 0; run < runs; run++) {
            if (!warm) await clearKeptTiles()
            let started = performance.now()
            await (await get(f, '/checkpoint')).json()
            times.roundTrip.push(performance.now() - started)
            // The ledger page's own request: its blocks, and the checkpoint with them.
            started = performance.now()
            const page = await (await fetch('/api/blockchain/circle/' + f.circleId, {
              headers: { authorization: f.auth }, cache: 'no-store' })).json()
            times.page.push(performance.now() - started)
            if (!page.checkpoint) throw new Error('no checkpoint came with the blocks')
            started = performance.now()
            const result = await verifyCircle(f.circleId, blocks, depsOfOneCheck(page.checkpoint))
            times.check.push(performance.now() - started)
            if (result.state !== 'verified') throw new Error('not verified: ' + result.reason)
          }
          return times
        }
        globalThis.circlesBench = { time }
      `,
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    outfile,
    logLevel: 'warning',
  })
  try {
    return await readFile(outfile, 'utf8')
  } finally {
    await rm(outfile)
  }
}

/** `count` real handovers from `owner` to `member`, each confirmed: the newest blocks of the log. */
async function handOver(base, owner, member, circleId, count) {
  for (let i = 0; i < count; i++) {
    const item = await json(`${base}/api/items`, { name: `Drill ${i}`, circleId }, owner.auth)
    const handover = await json(
      `${base}/api/handovers`,
      { itemId: item.body.item.id, receiverId: member.user.id },
      owner.auth,
    )
    const res = await fetch(`${base}/api/handovers/${handover.body.handover.id}/status`, {
      method: 'PUT',
      headers: { ...member.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'CONFIRMED' }),
    })
    if (!res.ok) throw new Error(`confirm failed: ${res.status} ${await res.text()}`)
  }
}

/** The older blocks, generated in the database (their hashes only need to be distinct and fixed). */
async function olderBlocks(client, circleId, size) {
  await insertGeneratedBlocks(client, circleId, size, '00000000-0000-4000-8000-000000000029')
  const md5 = (i) => createHash('md5').update(String(i)).digest('hex')
  await client.query('INSERT INTO ledger_heads (circle_id, size, head_hash) VALUES ($1, $2, $3)', [
    circleId,
    size,
    md5(size - 1) + md5(size),
  ])
  await client.query('VACUUM ANALYZE blocks')
}

/** `count` older blocks at random heights, as redacted v1 blocks: their hash is proven, not recomputed. */
function spreadBlocks(circle, below, count = SHOWN) {
  const md5 = (i) => createHash('md5').update(String(i)).digest('hex')
  const heights = new Set()
  while (heights.size < count) heights.add(Math.floor(Math.random() * below))
  return [...heights].map((height) => ({
    id: `block-${height}`,
    hash: md5(height) + md5(height + 1),
    redacted: ['from', 'to'],
    content: {
      v: 1,
      kind: 'HANDOVER',
      circle: { id: circle.id, name: 'Bench' },
      height,
      prevHash: height === 0 ? '0'.repeat(64) : md5(height - 1) + md5(height),
      first: height === 0,
      time: '2026-01-01T00:00:00.000Z',
      handoverId: null,
      item: { id: '00000000-0000-4000-8000-000000000029', name: 'Item' },
      from: { id: '00000000-0000-4000-8000-000000000029', name: null },
      to: { id: '00000000-0000-4000-8000-000000000029', name: null },
      ownership: 'PARTIAL',
      commitments: { requesterComment: null, receiverComment: null, secretMessage: null },
    },
  }))
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

const database = await freshPostgresDatabase(process.env.DATABASE_URL)
const app = await startApp({ DATABASE_URL: database.url, PLAN_LIMITS: 'off' })
const client = new pg.Client({ connectionString: database.url })
await client.connect()
let browser
try {
  const { base } = app
  const owner = await verifiedUser(base, app, 'owner@example.com')
  const member = await verifiedUser(base, app, 'member@example.com')
  const circle = (await json(`${base}/api/circles`, { name: 'Tiles', description: '' }, owner.auth)).body
    .circle
  await join(base, owner, circle.id, member)
  let started = performance.now()
  await olderBlocks(client, circle.id, SIZE - SHOWN)
  // The first append builds the circle's tiles and frontier from its leaves, once (docs/decisions/0058).
  await handOver(base, owner, member, circle.id, SHOWN)
  console.log(`${SIZE} blocks in ${((performance.now() - started) / 1000).toFixed(0)} s`)
  const shown = (await json(`${base}/api/blockchain/circle/${circle.id}`, undefined, member.auth)).body.blocks
    .filter((b) => b.content.height >= SIZE - SHOWN)
    .map(({ id, hash, content, names, redacted }) => ({ id, hash, content, names, redacted }))
  if (shown.length !== SHOWN) throw new Error(`${shown.length} real blocks, not ${SHOWN}`)
  const { rows } = await client.query(
    'SELECT note FROM ledger_checkpoints WHERE circle_id = $1 AND size = $2',
    [circle.id, SIZE - SHOWN / 2],
  )
  const fixture = {
    circleId: circle.id,
    auth: member.auth.authorization,
    keys: (await json(`${base}/api/ledger/keys`)).body.keys,
    remembered: rows[0].note,
  }
  const spread = spreadBlocks(circle, SIZE - SHOWN)

  browser = await chromium.launch({ executablePath: CHROMIUM })
  const page = await browser.newPage()
  // A blank page of the server's origin (the API's own pages forbid inline scripts).
  await page.route(`${base}/__bench`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html>' }),
  )
  await page.goto(`${base}/__bench`)
  await page.addScriptTag({ content: await pageScript() })
  const time = (blocks, warm) =>
    page.evaluate(({ f, blocks, runs, warm }) => globalThis.circlesBench.time(f, blocks, runs, warm), {
      f: fixture,
      blocks,
      runs: RUNS,
      warm,
    })
  await time(shown, false) // warm-up: the server's and the page's first calls
  const runs = {}
  for (const [name, blocks] of [
    ['newest', shown],
    ['spread', spread],
  ])
    for (const warm of [false, true]) runs[`${name}-${warm ? 'warm' : 'cold'}`] = await time(blocks, warm)
  const roundTrip = median(Object.values(runs).flatMap((r) => r.roundTrip))
  const pageAnswer = median(Object.values(runs).flatMap((r) => r.page))
  const result = Object.fromEntries(Object.entries(runs).map(([name, r]) => [name, median(r.check)]))
  console.log(
    `check of ${SHOWN} blocks at ${SIZE}: ${Object.entries(result)
      .map(([name, ms]) => `${name} ${ms.toFixed(1)} ms`)
      .join(
        ', ',
      )}; one API call ${roundTrip.toFixed(1)} ms; the page's blocks answer ${pageAnswer.toFixed(1)} ms`,
  )
  const ratio = (value) => (value / roundTrip).toFixed(1)
  await writeSection(
    'ledger-tiles-browser',
    `<!-- ledger-tiles-browser:start -->
## The browser's check from tiles (\`npm run bench:ledger-tiles-browser\`, PostgreSQL)

${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, Chromium from \`${CHROMIUM}\`, the built server on loopback.
A circle of ${SIZE.toLocaleString('en')} blocks (the older ones generated in the database, the newest ${SHOWN}
real handovers; the server built its tiles on the first of those appends). A member's device checks the
${SHOWN} newest blocks (what the ledger page shows; their tiles are the partial ones) and ${SHOWN} older
blocks spread over the log (shown as redacted v1 blocks, so their generated hashes are taken and proven,
not recomputed; each lies in its own full tile) with the web app's own \`verifyCircle\` and \`tileProofs\` (docs/decisions/0060): the
signed checkpoint that came with the page's blocks (docs/decisions/0066; the page's request, timed apart,
is not part of the check) and its signature checked, consistency with a checkpoint remembered ${SHOWN / 2} blocks
earlier, each block's hash recomputed and its audit path built from tiles authenticated against the signed
root. Cold: the device's tile store (IndexedDB) emptied before each run, so every tile is fetched; warm:
every tile the check needs is kept on the device (full and partial ones), none fetched. ${RUNS} runs
each, medians, against one plain API call (the checkpoint) timed in the same page and runs.
Targets: 50 ms cold, 10 ms warm.

| | median | ratio to one API call |
|---|---:|---:|
| one API call (baseline) | ${roundTrip.toFixed(1)} ms | 1.0 |
| the ledger page's request: the circle's newest 500 blocks with the checkpoint (before the check) | ${pageAnswer.toFixed(1)} ms | ${ratio(pageAnswer)} |
| the ${SHOWN} newest blocks (the ledger page), cold tile store | ${result['newest-cold'].toFixed(1)} ms | ${ratio(result['newest-cold'])} |
| the ${SHOWN} newest blocks, warm tile store | ${result['newest-warm'].toFixed(1)} ms | ${ratio(result['newest-warm'])} |
| ${SHOWN} blocks spread over the log (an item's history), cold | ${result['spread-cold'].toFixed(1)} ms | ${ratio(result['spread-cold'])} |
| ${SHOWN} blocks spread over the log, warm | ${result['spread-warm'].toFixed(1)} ms | ${ratio(result['spread-warm'])} |
<!-- ledger-tiles-browser:end -->`,
  )
} finally {
  await browser?.close()
  await client.end()
  await app.stop()
  await database.drop()
  for (const child of children) child.kill('SIGTERM')
}
