// API load benchmark: bare Fastify hello vs POST /api/users/login vs authenticated reads (user status,
// the circle list, a circle's page), all in one run on loopback, written to bench/README.md as ratios.
// Bounded: each scenario runs DURATION seconds with CONNECTIONS connections, then everything stops.
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'

const root = fileURLToPath(new URL('..', import.meta.url))
const DURATION = Number(process.env.BENCH_DURATION ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10)
const children = []

function start(command, args, env, ready) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    children.push(child)
    // The last 64 KB of output: enough for the verification link, never a cost that grows with the run.
    let out = ''
    let started = false
    const onData = (chunk) => {
      out = (out + chunk).slice(-65_536)
      if (started) return
      const value = ready(out)
      if (value) {
        started = true
        resolve({ child, value, output: () => out })
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}:\n${out}`)))
  })
}

function run(title, opts) {
  return new Promise((resolve, reject) => {
    autocannon({ duration: DURATION, connections: CONNECTIONS, ...opts }, (err, result) => {
      if (err) return reject(err)
      if (result.non2xx > 0 || result.errors > 0) {
        return reject(new Error(`${title}: ${result.non2xx} non-2xx answers, ${result.errors} errors`))
      }
      resolve({ title, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 })
    })
  })
}

async function json(url, body, headers = {}) {
  const res = await fetch(url, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json', ...headers },
    body: body ? JSON.stringify(body) : undefined,
  })
  return { status: res.status, body: await res.json() }
}

/** A fresh database on the PostgreSQL server of DATABASE_URL, dropped again at the end. */
async function freshPostgresDatabase(serverUrl) {
  const { default: pg } = await import('pg')
  const name = `circles_bench_${process.pid}_${Date.now()}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const again = new pg.Client({ connectionString: serverUrl })
      await again.connect()
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await again.end()
    },
  }
}

/** Starts the built server on a store, makes a verified user with a circle, and measures the scenarios. */
async function measure(store, env) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'circles-bench-'))
  const port = 20_000 + Math.floor(Math.random() * 20_000)
  const app = await start(
    'node',
    ['apps/server/dist/server.js'],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      RATE_LIMITS: 'off',
      SMTP_URL: '',
      DATABASE_URL: '',
      ...env,
    },
    (out) => out.includes('Circles is running'),
  )
  try {
    const base = `http://127.0.0.1:${port}`
    // A verified user: register, then follow the link the log transport prints (no SMTP configured).
    const email = 'bench@example.com'
    const password = 'benchmark password'
    await json(`${base}/api/users/register`, { name: 'Bench', email, password })
    let token
    for (let i = 0; i < 50 && !token; i++) {
      token = app.output().match(/verify\?token=([0-9a-f]{64})/)?.[1]
      if (!token) await new Promise((r) => setTimeout(r, 100))
    }
    if (!token) throw new Error('no verification link in the server log')
    await json(`${base}/api/users/verify/${token}`)
    const login = await json(`${base}/api/users/login`, { email, password })
    if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`)
    const { token: session, user } = login.body
    const auth = { authorization: `Bearer ${session}` }
    const created = await json(
      `${base}/api/circles`,
      { name: 'Bench circle', description: 'Benchmark' },
      auth,
    )
    if (created.status !== 201) throw new Error(`create circle failed: ${JSON.stringify(created.body)}`)
    const circleId = created.body.circle.id

    // The baseline right before this store's scenarios, so both see the machine alike.
    const results = [
      await run('bare Fastify GET /hello (baseline)', { url: `http://127.0.0.1:${hello.value}/hello` }),
    ]
    results.push(await run('GET /api/health (no database)', { url: `${base}/api/health` }))
    results.push(
      await run('POST /api/users/login (argon2id verify + JWT)', {
        url: `${base}/api/users/login`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      }),
    )
    results.push(
      await run('GET /api/users/status/:id (JWT + user lookup)', {
        url: `${base}/api/users/status/${user.id}`,
        headers: auth,
      }),
    )
    results.push(
      await run('GET /api/circles (JWT, user, memberships + member counts)', {
        url: `${base}/api/circles`,
        headers: auth,
      }),
    )
    results.push(
      await run('GET /api/circles/:id (access check + members)', {
        url: `${base}/api/circles/${circleId}`,
        headers: auth,
      }),
    )
    return { store, results }
  } finally {
    app.child.kill('SIGTERM')
    await new Promise((resolve) => app.child.once('exit', resolve))
    await rm(dataDir, { recursive: true, force: true })
  }
}

function table({ store, results }) {
  const baseline = results[0].rps
  return [
    `### ${store}`,
    '',
    '| scenario | req/s | ratio to baseline | p50 ms | p99 ms |',
    '|---|---:|---:|---:|---:|',
    ...results.map(
      (r) => `| ${r.title} | ${Math.round(r.rps)} | ${(r.rps / baseline).toFixed(3)} | ${r.p50} | ${r.p99} |`,
    ),
  ].join('\n')
}

const hello = await start('node', ['bench/hello-server.mjs'], {}, (out) => out.match(/listening (\d+)/)?.[1])
try {
  const measured = [await measure('PGlite (embedded, the default)', {})]
  if (process.env.DATABASE_URL) {
    const database = await freshPostgresDatabase(process.env.DATABASE_URL)
    try {
      measured.push(await measure('PostgreSQL (`DATABASE_URL`)', { DATABASE_URL: database.url }))
    } finally {
      await database.drop()
    }
  } else {
    console.warn(
      'DATABASE_URL is not set: PostgreSQL is not measured (its table in bench/README.md stays as it was)',
    )
  }

  const readmePath = path.join(root, 'bench', 'README.md')
  const previous = await readFile(readmePath, 'utf8').catch(() => '')
  const oldPostgres = previous.match(/### PostgreSQL[\s\S]*?(?=\n<!-- api:notes -->)/)?.[0]
  const tables = measured.map(table)
  if (!process.env.DATABASE_URL && oldPostgres)
    tables.push(`${oldPostgres.trim()}\n\n(PostgreSQL: from an earlier run.)`)
  const section = [
    '<!-- api:start -->',
    '## API load (`npm run bench:api`)',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores, Node ${process.version},`,
    `${DURATION} s per scenario, ${CONNECTIONS} connections, loopback, rate limits off, the server's default`,
    'log level (info). Ratios are to a bare Fastify app measured in the same run right before each',
    'table; absolute numbers vary by machine. PostgreSQL is measured when `DATABASE_URL` is set',
    '(a fresh database on that server, dropped afterwards).',
    '',
    tables.join('\n\n'),
    '<!-- api:notes -->',
    '<!-- api:end -->',
  ].join('\n')
  const notes = previous.match(/<!-- api:notes -->([\s\S]*?)<!-- api:end -->/)?.[1] ?? '\n'
  const header =
    '# Benchmarks\n\nEach benchmark reports ratios to a baseline measured in the same run (the machines are shared and noisy).\n\n'
  const filled = section.replace(
    '<!-- api:notes -->\n<!-- api:end -->',
    `<!-- api:notes -->${notes}<!-- api:end -->`,
  )
  const next = previous.includes('<!-- api:start -->')
    ? previous.replace(/<!-- api:start -->[\s\S]*<!-- api:end -->/, filled)
    : `${previous || header}${filled}\n`
  await writeFile(readmePath, next)
  console.log(filled)
} finally {
  for (const child of children) child.kill('SIGTERM')
}
