// Loan reminders benchmark (issue 26, docs/decisions/0049): 100,000 loans due, the reminder scan that
// claims and queues them (feed entry, outbox email, claim row, in batches of 1,000) against a plain
// indexed select of the same rows in the same run, and the request path's latency (GET /api/health and
// an item read with a session) with and without scans running in the same process. PostgreSQL
// (DATABASE_URL, default the local test cluster): a fresh database, dropped afterwards. The app runs in
// this process (tsx) so the scan is called directly on a test clock; autocannon runs as a child process
// so it does not share the server's event loop. Written to bench/README.md.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { root, writeSection } from './lib.mjs'

const LOANS = Number(process.env.BENCH_LOANS ?? 100_000)
const DURATION = Number(process.env.BENCH_DURATION ?? 8)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10)
const SERVER = process.env.DATABASE_URL ?? 'postgres://circles:circles@127.0.0.1:5432/postgres'
const PORT = Number(process.env.BENCH_PORT ?? 42_410)
const SECRET = 'bench-reminders-'.padEnd(48, 'x')
const DAY = 86_400_000

const { buildApp } = await import('../apps/server/src/app.ts')
const { loadConfig } = await import('../apps/server/src/config.ts')
const { fromPostgres } = await import('../apps/server/src/db/client.ts')
const { migratePostgres } = await import('../apps/server/src/db/migrate.ts')
const { createSessionTokens } = await import('../apps/server/src/modules/auth/session-token.ts')
const { SCAN_BATCH } = await import('../apps/server/src/modules/loan-reminders/loan-reminders.service.ts')

const name = `${process.env.BENCH_DB_PREFIX ?? 'hreminders_bench_'}${randomBytes(4).toString('hex')}`
const admin = new pg.Client({ connectionString: SERVER })
await admin.connect()
await admin.query(`create database ${name}`)
const url = new URL(SERVER)
url.pathname = `/${name}`
const dbUrl = url.toString()
await migratePostgres(dbUrl)

// 100 lenders and 100 borrowers, one circle, one item per loan, each loan due two days ago (so the
// first overdue notice and the lender's are due now: two reminders per loan).
const now = new Date()
const seed = new pg.Client({ connectionString: dbUrl })
await seed.connect()
await seed.query(`
  insert into users (name, email, password_hash, email_verified, language)
  select 'Person ' || i, 'person' || i || '@bench.example', 'x', true, (case when i % 2 = 0 then 'en' else 'de' end)
  from generate_series(0, 199) as i`)
const { rows: people } = await seed.query('select id from users order by email')
const { rows: circle } = await seed.query(
  `insert into circles (name, admin_id) values ('Bench circle', $1) returning id`,
  [people[0].id],
)
const circleId = circle[0].id
await seed.query(`insert into circle_members (circle_id, user_id) select $1, id from users`, [circleId])
await seed.query(
  `insert into items (circle_id, owner_id, name, ownership, created_by_id)
   select $1, (select id from users order by email offset (i % 100) limit 1), 'Bench item ' || i, 'COMPLETE',
     (select id from users order by email offset (i % 100) limit 1)
   from generate_series(0, $2 - 1) as i`,
  [circleId, LOANS],
)
await seed.query(
  `insert into loans (circle_id, item_id, lender_id, borrower_id, due_at, started_at)
   select $1, it.id, it.owner_id, b.id, $2::timestamptz + make_interval(secs => n * 0.01), $2::timestamptz - interval '14 days'
   from (select id, owner_id, row_number() over (order by id) as n from items) it
   join (select id, row_number() over (order by email) - 101 as k from users offset 100) b on b.k = it.n % 100`,
  [circleId, new Date(now.getTime() - 2 * DAY)],
)
await seed.query('analyze')
const { rows: counted } = await seed.query(`select count(*)::int as n from loans where status = 'ACTIVE'`)
if (counted[0].n !== LOANS) throw new Error(`seeded ${counted[0].n} loans, wanted ${LOANS}`)

// The app, as an instance runs it, but on a clock of our own; its scan timer effectively off.
let clockNow = now.getTime()
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'hreminders-bench-'))
// The outbox is not drained while we measure (a transport that holds its first email): the scan's job
// is to queue; sending is the outbox worker's, measured by the other benches.
const held = { kind: 'logged', send: () => new Promise(() => {}), close() {} }
const database = fromPostgres(dbUrl, 10)
const app = await buildApp({
  config: loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: dbUrl,
    PUBLIC_URL: `http://127.0.0.1:${PORT}`,
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'warn',
    LOAN_REMINDER_SCAN_INTERVAL: '24h',
  }),
  database,
  jwtSecret: SECRET,
  webDir: null,
  mailTransport: held,
  clock: () => new Date(clockNow),
})
await app.listen({ port: PORT, host: '127.0.0.1' })
const base = `http://127.0.0.1:${PORT}`
const session = createSessionTokens(SECRET).issue({ userId: people[0].id, sv: 0 })
const { rows: anItem } = await seed.query('select id from items where owner_id = $1 limit 1', [people[0].id])
const itemUrl = `${base}/api/items/${anItem[0].id}`

/** The plain indexed select of the same rows: every ACTIVE loan in the scan's window, by due date. */
async function plainSelect() {
  const started = performance.now()
  const { rows } = await seed.query(
    `select * from loans where status = 'ACTIVE' and due_at between $1 and $2 order by due_at, id`,
    [new Date(clockNow - 19 * DAY), new Date(clockNow + 3 * DAY)],
  )
  const seconds = (performance.now() - started) / 1000
  return { rows: rows.length, seconds, perSecond: rows.length / seconds }
}

/** autocannon in a child process for `seconds`, against `target` with the session. */
function load(target, seconds) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      path.join(root, 'node_modules/.bin/autocannon'),
      [
        '-j',
        '-c',
        String(CONNECTIONS),
        '-d',
        String(seconds),
        '-H',
        `authorization=Bearer ${session}`,
        target,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let out = ''
    child.stdout.on('data', (chunk) => (out += chunk))
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}`))
      const result = JSON.parse(out)
      if (result.non2xx > 0 || result.errors > 0) reject(new Error(`${target}: ${result.non2xx} non-2xx`))
      resolve({ rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 })
    })
  })
}

/** Scans one after another (each a week later on the clock, so new overdue notices fall due) until `until` settles. */
async function scanning(until) {
  let done = false
  until.finally(() => (done = true))
  const scans = []
  while (!done) {
    // Up to the third overdue notice (two weeks after the first); later scans find everything claimed,
    // the steady state every interval runs.
    clockNow = Math.min(clockNow + 7 * DAY, now.getTime() + 14 * DAY)
    const started = performance.now()
    const result = await app.loanReminders.scan()
    scans.push({ ...result, seconds: (performance.now() - started) / 1000 })
  }
  return scans
}

try {
  const selects = [await plainSelect(), await plainSelect(), await plainSelect()]
  const baseline = selects.reduce((a, b) => (a.perSecond > b.perSecond ? a : b))

  const quietHealth = await load(`${base}/api/health`, DURATION)
  const quietItem = await load(itemUrl, DURATION)

  const started = performance.now()
  const first = await app.loanReminders.scan()
  const scanSeconds = (performance.now() - started) / 1000
  if (first.loans !== LOANS || first.sent !== 2 * LOANS || first.emails !== 2 * LOANS) {
    throw new Error(`the scan looked at ${first.loans} loans and sent ${first.sent} reminders`)
  }
  const { rows: claims } = await seed.query('select count(*)::int as n from loan_reminders')
  const { rows: queued } = await seed.query('select count(*)::int as n from outbox')
  const againStarted = performance.now()
  const again = await app.loanReminders.scan()
  const againSeconds = (performance.now() - againStarted) / 1000

  // A week later the second overdue notice falls due for every loan: the same scan with every email
  // switched off (claim and feed entry only), to show what the emails cost.
  await seed.query('update users set notify_loan_reminders = false')
  clockNow += 7 * DAY
  const quietStarted = performance.now()
  const noEmail = await app.loanReminders.scan()
  const noEmailSeconds = (performance.now() - quietStarted) / 1000
  await seed.query('update users set notify_loan_reminders = true')
  const { rows: sizes } = await seed.query(
    'select avg(length(html_body) + length(text_body))::int as bytes from outbox',
  )

  const busyHealthRun = load(`${base}/api/health`, DURATION)
  const healthScans = await scanning(busyHealthRun)
  const busyHealth = await busyHealthRun
  const busyItemRun = load(itemUrl, DURATION)
  const itemScans = await scanning(busyItemRun)
  const busyItem = await busyItemRun

  const perSecond = LOANS / scanSeconds
  const ratio = perSecond / baseline.perSecond
  const fmt = (n, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d })
  const row = (label, quiet, busy) =>
    `| ${label} | ${fmt(quiet.p50, 1)} / ${fmt(quiet.p99, 1)} ms | ${fmt(busy.p50, 1)} / ${fmt(busy.p99, 1)} ms | ${fmt(busy.p99 / Math.max(quiet.p99, 1), 2)} | ${fmt(quiet.rps)} → ${fmt(busy.rps)} |`
  const section = `<!-- reminders:start -->
## Loan reminders (issue 26)

\`npm run bench:reminders\` (${new Date().toISOString().slice(0, 10)}, PostgreSQL ${(await seed.query('show server_version')).rows[0].server_version}, ${os.cpus().length} cores shared with other work):
${fmt(LOANS)} ACTIVE loans due two days ago, 200 people, the app in the bench's process on a test clock.

| measure | result |
|---|---|
| plain indexed select of the same rows (\`select * from loans where status = 'ACTIVE' and due_at between …\`, best of 3) | ${fmt(baseline.perSecond)} rows/s (${fmt(baseline.seconds, 2)} s) |
| the reminder scan: read with both people and the item, ${fmt(first.sent)} reminders claimed, ${fmt(first.emails)} emails queued, ${fmt(first.sent)} feed entries, in batches of ${fmt(SCAN_BATCH)} loans | ${fmt(perSecond)} loans/s (${fmt(scanSeconds, 2)} s) |
| **ratio scan / select** (target ≥ 0.5) | **${fmt(ratio, 2)}** |
| claim rows / outbox rows after the scan | ${fmt(claims[0].n)} / ${fmt(queued[0].n)} |
| the same scan again, as every interval runs it (everything claimed: the read brings the claims along, nothing worded or written) | ${fmt(again.loans / againSeconds)} loans/s (${fmt(againSeconds, 2)} s, ${fmt(again.sent)} sent): **ratio ${fmt(again.loans / againSeconds / baseline.perSecond, 2)}** |
| a week later, the second overdue notices with every email switched off (claim and feed entry only) | ${fmt(noEmail.loans / noEmailSeconds)} loans/s (${fmt(noEmailSeconds, 2)} s, ${fmt(noEmail.sent)} sent, ${fmt(noEmail.emails)} emails): ratio ${fmt(noEmail.loans / noEmailSeconds / baseline.perSecond, 2)} |
| size of a queued reminder email (text + HTML) | ${fmt(sizes[0].bytes)} bytes |

Request path while scans run back to back (each a week later on the clock: the second and third overdue
notice, then everything already claimed; ${fmt(healthScans.length + itemScans.length)} scans), ${CONNECTIONS} connections, ${DURATION} s each:

| request | p50 / p99 without a scan | p50 / p99 with scans | p99 ratio | requests/s |
|---|---|---|---|---|
${row('GET /api/health', quietHealth, busyHealth)}
${row('GET /api/items/:id (session)', quietItem, busyItem)}

The outbox is held while measuring (its transport never finishes the first email): the scan queues, the
worker's sending is measured by the other benches. The select baseline reads only \`loans\`; the scan also
joins two people and the item per loan, computes each reminder in the recipient's time zone, renders the
email in their language, and writes three rows per reminder in one transaction per batch.
<!-- reminders:end -->`
  await writeSection('reminders', section)
  console.log(section)
} finally {
  await seed.end()
  // The held email keeps the outbox worker waiting: close without waiting for it.
  await Promise.race([app.close().catch(() => {}), new Promise((r) => setTimeout(r, 2000))])
  await database.close().catch(() => {})
  await admin.query(`drop database if exists ${name} with (force)`)
  await admin.end()
  await rm(dataDir, { recursive: true, force: true })
  process.exit(0)
}
