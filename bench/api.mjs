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
    let out = ''
    const onData = (chunk) => {
      out += chunk
      const value = ready(out)
      if (value) resolve({ child, value, output: () => out })
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

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'circles-bench-'))
try {
  const hello = await start(
    'node',
    ['bench/hello-server.mjs'],
    {},
    (out) => out.match(/listening (\d+)/)?.[1],
  )
  const port = 20_000 + Math.floor(Math.random() * 20_000)
  const app = await start(
    'node',
    ['apps/server/dist/server.js'],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'info',
      SMTP_URL: '',
    },
    (out) => out.includes('Circles is running'),
  )
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
  const created = await json(`${base}/api/circles`, { name: 'Bench circle', description: 'Benchmark' }, auth)
  if (created.status !== 201) throw new Error(`create circle failed: ${JSON.stringify(created.body)}`)
  const circleId = created.body.circle.id

  const results = []
  results.push(
    await run('bare Fastify GET /hello (baseline)', { url: `http://127.0.0.1:${hello.value}/hello` }),
  )
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
    await run('GET /api/circles (memberships + member counts)', {
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

  const baseline = results[0].rps
  const rows = results.map(
    (r) => `| ${r.title} | ${Math.round(r.rps)} | ${(r.rps / baseline).toFixed(4)} | ${r.p50} | ${r.p99} |`,
  )
  const readmePath = path.join(root, 'bench', 'README.md')
  const previous = await readFile(readmePath, 'utf8').catch(() => '')
  const section = [
    '<!-- api:start -->',
    '## API load (`npm run bench`)',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores, Node ${process.version},`,
    `${DURATION} s per scenario, ${CONNECTIONS} connections, loopback, PGlite, rate limits off.`,
    'Ratios are to the bare Fastify baseline measured in the same run; absolute numbers vary by machine.',
    '',
    '| scenario | req/s | ratio to baseline | p50 ms | p99 ms |',
    '|---|---:|---:|---:|---:|',
    ...rows,
    '<!-- api:end -->',
  ].join('\n')
  const header =
    '# Benchmarks\n\nEach benchmark reports ratios to a baseline measured in the same run (the machines are shared and noisy).\n\n'
  const next = previous.includes('<!-- api:start -->')
    ? previous.replace(/<!-- api:start -->[\s\S]*<!-- api:end -->/, section)
    : `${previous || header}${section}\n`
  await writeFile(readmePath, next)
  console.log(section)
} finally {
  for (const child of children) child.kill('SIGTERM')
  await new Promise((r) => setTimeout(r, 500))
  await rm(dataDir, { recursive: true, force: true })
}
