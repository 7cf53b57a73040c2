// Footprint of the embedded default (issue 25, docs/decisions/0045): the built server on PGlite in a
// fresh DATA_DIR, started once cold (initdb and migrations), then RUNS warm starts on the same
// directory. Each warm start reports the time from spawn to GET /api/ready answering 200, the CPU time
// the start used (the server and its reaped children, so the migration child counts), and the resident
// memory (VmRSS with its RssAnon and RssFile parts) right after ready, after IDLE_MS idle, and after a
// small standard workload (sign-up, circle, items with pictures, reads) and IDLE_MS idle again, so that
// code loaded lazily is counted once a request needs it. Baselines in the same run, same machine: a
// plain Node process loading PGlite alone with its default settings on the same database
// (bench/footprint-pglite.mjs), and the bare Fastify app (bench/hello-server.mjs). Medians; the
// section `## Footprint` of bench/README.md is rewritten (its notes after `<!-- footprint:notes -->` stay).
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { json, readReadme, root, verifiedUser, writeSection } from './lib.mjs'

const RUNS = Number(process.env.FOOTPRINT_RUNS ?? 5)
const IDLE_MS = Number(process.env.FOOTPRINT_IDLE_MS ?? 5000)
const READY_TIMEOUT_MS = 300_000
const TICKS_PER_SECOND = 100
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** VmRSS, RssAnon and RssFile of a process in MB. */
function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const mb = (key) => Number(status.match(new RegExp(`${key}:\\s+(\\d+) kB`))[1]) / 1024
  return { rss: mb('VmRSS'), anon: mb('RssAnon'), file: mb('RssFile') }
}

/** CPU seconds of a process and of the children it has waited for (the migration child). */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number)
  return (utime + stime + cutime + cstime) / TICKS_PER_SECOND
}

const children = new Set()
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL')
})

/** Spawns `args` and resolves once `isReady()` holds (polled every 10 ms), with the time it took. */
async function launch(args, env, isReady) {
  const started = performance.now()
  const child = spawn('node', args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.add(child)
  let out = ''
  const keep = (chunk) => {
    out = (out + chunk).slice(-16_384)
  }
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  let exited = false
  child.once('exit', () => {
    exited = true
  })
  for (;;) {
    if (exited) throw new Error(`${args.join(' ')} exited before it was ready:\n${out}`)
    if (performance.now() - started > READY_TIMEOUT_MS)
      throw new Error(`${args.join(' ')} not ready:\n${out}`)
    if (await isReady(() => out)) break
    await sleep(10)
  }
  const readyMs = performance.now() - started
  return {
    child,
    readyMs,
    cpu: cpuSeconds(child.pid),
    async stop() {
      if (!exited) {
        child.kill('SIGTERM')
        await new Promise((resolve) => child.once('exit', resolve))
      }
      children.delete(child)
    },
  }
}

const answers200 = (url) => async () => {
  try {
    return (await fetch(url)).status === 200
  } catch {
    return false
  }
}

let nextPort = 41_500 + Math.floor(Math.random() * 90)
/** The built server on DATA_DIR; a port another process holds (a shared machine) is skipped. */
async function startServer(dataDir) {
  for (let attempt = 0; ; attempt++) {
    const port = 41_500 + (nextPort++ % 100)
    const base = `http://127.0.0.1:${port}`
    const env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      RATE_LIMITS: 'off',
      PLAN_LIMITS: 'off',
    }
    Object.assign(env, { SMTP_URL: '', DATABASE_URL: '', LOG_LEVEL: 'warn' })
    try {
      const server = await launch(
        [process.env.FOOTPRINT_SERVER ?? 'apps/server/dist/server.js'],
        env,
        answers200(`${base}/api/ready`),
      )
      return { ...server, base }
    } catch (error) {
      if (attempt > 5 || !String(error.message).includes('EADDRINUSE')) throw error
    }
  }
}

let picture
/** The standard small workload: a verified user, a circle, three items with a picture, and reads of each page. */
async function workload(server, run) {
  picture ??= await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#6a8' } })
    .jpeg({ quality: 80 })
    .toBuffer()
  const { base } = server
  const { auth } = await verifiedUser(base, { mailDir: server.mailDir }, `footprint-${run}@example.com`)
  const circle = await json(`${base}/api/circles`, { name: `Footprint ${run}`, description: 'Bench' }, auth)
  const circleId = circle.body.circle.id
  const boundary = '----circlesfootprint'
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="p.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    picture,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  for (let i = 0; i < 3; i++) {
    const item = await json(`${base}/api/items`, { name: `Thing ${i}`, circleId }, auth)
    const res = await fetch(`${base}/api/items/${item.body.item.id}/image`, {
      method: 'POST',
      headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    })
    if (!res.ok) throw new Error(`picture upload failed: ${res.status} ${await res.text()}`)
    const { thumbnailUrl } = await res.json()
    await (await fetch(`${base}${thumbnailUrl}`, { headers: auth })).arrayBuffer()
  }
  for (const url of [
    '/api/circles',
    `/api/circles/${circleId}`,
    `/api/items/circle/${circleId}`,
    '/api/health',
  ]) {
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${base}${url}`, { headers: auth })
      if (!res.ok) throw new Error(`${url}: ${res.status}`)
      await res.arrayBuffer()
    }
  }
  const page = await fetch(`${base}/`)
  if (!page.ok) throw new Error(`/: ${page.status}`)
  await page.arrayBuffer()
}

/** One measured start: ready time, CPU, memory at ready, after idle, after the workload and idle. */
async function measureServer(dataDir, run) {
  const server = await startServer(dataDir)
  server.mailDir = path.join(dataDir, 'mail')
  try {
    const atReady = memory(server.child.pid)
    await sleep(IDLE_MS)
    const idle = memory(server.child.pid)
    await workload(server, run)
    await sleep(IDLE_MS)
    const afterWork = memory(server.child.pid)
    return { readyMs: server.readyMs, cpu: server.cpu, atReady, idle, afterWork }
  } finally {
    await server.stop()
  }
}

async function measureBaseline(args, isReady) {
  const proc = await launch(args, {}, isReady)
  try {
    const atReady = memory(proc.child.pid)
    await sleep(IDLE_MS)
    return { readyMs: proc.readyMs, cpu: proc.cpu, atReady, idle: memory(proc.child.pid) }
  } finally {
    await proc.stop()
  }
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'circles-footprint-'))
const servers = []
const pglites = []
const hellos = []
let cold
try {
  cold = await measureServer(dataDir, 'cold')
  for (let run = 0; run < RUNS; run++) {
    // Interleaved, so that each sees the machine alike.
    pglites.push(
      await measureBaseline(['bench/footprint-pglite.mjs', path.join(dataDir, 'db')], async (out) =>
        out().includes('ready'),
      ),
    )
    hellos.push(
      await measureBaseline(['bench/hello-server.mjs'], async (out) => {
        const port = out().match(/listening (\d+)/)?.[1]
        return port ? answers200(`http://127.0.0.1:${port}/hello`)() : false
      }),
    )
    servers.push(await measureServer(dataDir, run))
    console.log(
      `run ${run + 1}/${RUNS}: ready ${servers.at(-1).readyMs.toFixed(0)} ms, idle ${servers.at(-1).idle.rss.toFixed(0)} MB`,
    )
  }
} finally {
  await rm(dataDir, { recursive: true, force: true })
}

const m = (rows, pick) => median(rows.map(pick))
const mb = (value) => (value === undefined ? '—' : value.toFixed(0))
const ratio = (value, base) => (value / base).toFixed(2)
const pgliteIdle = m(pglites, (r) => r.idle.rss)
const pgliteReady = m(pglites, (r) => r.readyMs)

function row(title, rows, hasWork = true) {
  const ready = m(rows, (r) => r.readyMs)
  const idle = m(rows, (r) => r.idle.rss)
  return `| ${title} | ${ready.toFixed(0)} | ${ratio(ready, pgliteReady)} | ${m(rows, (r) => r.cpu).toFixed(2)} | ${mb(
    m(rows, (r) => r.atReady.rss),
  )} | ${mb(idle)} (${mb(m(rows, (r) => r.idle.anon))} + ${mb(m(rows, (r) => r.idle.file))}) | ${ratio(idle, pgliteIdle)} | ${
    hasWork
      ? `${mb(m(rows, (r) => r.afterWork.rss))} (${mb(m(rows, (r) => r.afterWork.anon))} + ${mb(m(rows, (r) => r.afterWork.file))})`
      : '—'
  } |`
}

const now = new Date().toISOString().slice(0, 10)
const old = await readReadme()
const notes =
  old.match(/<!-- footprint:notes -->[\s\S]*?(?=<!-- footprint:end -->)/)?.[0] ?? '<!-- footprint:notes -->\n'
const table = [
  '<!-- footprint:start -->',
  '## Footprint (`npm run bench:footprint`)',
  '',
  `Measured ${now} on ${os.cpus().length} cores, Node ${process.version}; the median of ${RUNS} warm starts`,
  `(the data directory exists and is migrated), idle periods of ${IDLE_MS / 1000} s, log level warn.`,
  'Ready: from spawn to the first 200 of `GET /api/ready` (baselines: to their first answer). CPU: seconds',
  'of CPU the start took, the migration child included (less sensitive than the wall time to a busy',
  'machine). Memory from `/proc/<pid>/status`: VmRSS (RssAnon + RssFile) in MB. Baseline: a plain Node',
  'process loading PGlite alone with its default settings on the same database',
  '(`bench/footprint-pglite.mjs`); ratios are to it. The workload: sign-up, a circle, three items with',
  'a picture each, 40 reads; then idle again. Targets (issue 25): idle RSS at most 300 MB, warm start at most 2 s.',
  '',
  '| process | ready ms | ratio | CPU s | RSS at ready | RSS idle (anon + file) | ratio | RSS after workload + idle |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  row('Node + PGlite alone, PGlite defaults (baseline)', pglites, false),
  row('bare Fastify (`bench/hello-server.mjs`)', hellos, false),
  row('Circles, warm start', servers),
  row('Circles, cold start (new DATA_DIR, one run)', [cold]),
  '',
  notes.trimEnd(),
  '<!-- footprint:end -->',
].join('\n')
await writeSection('footprint', table)
console.log(table)
