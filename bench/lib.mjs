// Shared by the API benchmarks: child servers whose output is watched for readiness, bounded
// autocannon runs, JSON calls, a verified user with a session, and the sections of bench/README.md.
import { spawn } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'

export const root = fileURLToPath(new URL('..', import.meta.url))
export const DURATION = Number(process.env.BENCH_DURATION ?? 10)
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10)
export const children = []

export function start(command, args, env, ready) {
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

export function run(title, opts) {
  return new Promise((resolve, reject) => {
    autocannon({ duration: DURATION, connections: CONNECTIONS, ...opts }, (err, result) => {
      if (err) return reject(err)
      if (result.non2xx > 0 || result.errors > 0) {
        return reject(new Error(`${title}: ${result.non2xx} non-2xx answers, ${result.errors} errors`))
      }
      resolve({
        title,
        rps: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        bytesPerRequest: result.requests.total ? result.throughput.total / result.requests.total : 0,
      })
    })
  })
}

export async function json(url, body, headers = {}) {
  const res = await fetch(url, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json', ...headers },
    body: body ? JSON.stringify(body) : undefined,
  })
  return { status: res.status, body: await res.json() }
}

/** A member's QR invitation, accepted: the quickest real way into a circle. */
export async function join(base, admin, circleId, member) {
  const invited = await json(
    `${base}/api/circles/${circleId}/invitations/qr`,
    { email: member.email },
    admin.auth,
  )
  const accepted = await fetch(`${base}/api/circles/invitations/${invited.body.invitation.token}`, {
    method: 'POST',
    headers: member.auth,
  })
  if (!accepted.ok) throw new Error(`join failed: ${accepted.status}`)
}

/**
 * `size` v1 blocks of a circle generated in the database, for logs too large to append one by one:
 * block i's hash is md5(i) || md5(i + 1) (distinct and fixed; not a real block hash), linked in order.
 */
export async function insertGeneratedBlocks(queryable, circleId, size, personId) {
  await queryable.query(
    `INSERT INTO blocks (circle_id, height, hash, prev_hash, version, kind, first, time, circle_name,
       item_id, item_name, from_id, from_name, to_id, to_name, ownership)
     SELECT $1, i, md5(i::text) || md5((i + 1)::text),
       CASE WHEN i = 0 THEN repeat('0', 64) ELSE md5((i - 1)::text) || md5(i::text) END,
       1, 'HANDOVER', i = 0, '2026-01-01T00:00:00.000Z', 'Bench', $2, 'Item', $2, 'A', $2, 'B', 'PARTIAL'
     FROM generate_series(0, $3 - 1) AS i`,
    [circleId, personId, size],
  )
}

/**
 * A verified user of the server at `base`: registered, verified through the link of the email the
 * server wrote to `DATA_DIR/mail` (no SMTP configured), signed in. Returns the session's user and
 * bearer header.
 */
const usedTokens = new Set()

/** The verification tokens of every email in the mail folder (quoted-printable text decoded). */
async function verificationTokens(mailDir) {
  const names = await readdir(mailDir).catch(() => [])
  const tokens = []
  for (const name of names.filter((n) => n.includes('verify-email')).sort()) {
    const text = (await readFile(path.join(mailDir, name), 'utf8'))
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=')
    for (const match of text.matchAll(/verify\?token=([0-9a-f]{64})/g)) tokens.push(match[1])
  }
  return tokens
}

export async function verifiedUser(base, app, email = 'bench@example.com', password = 'benchmark password') {
  await json(`${base}/api/users/register`, { name: 'Bench', email, password })
  let token
  for (let i = 0; i < 50 && !token; i++) {
    // The newest link not used yet: several users may register on one server.
    token = (await verificationTokens(app.mailDir)).findLast((t) => !usedTokens.has(t))
    if (!token) await new Promise((r) => setTimeout(r, 100))
  }
  if (!token) throw new Error(`no verification email in ${app.mailDir}`)
  usedTokens.add(token)
  await json(`${base}/api/users/verify/${token}`)
  const login = await json(`${base}/api/users/login`, { email, password })
  if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`)
  return { user: login.body.user, auth: { authorization: `Bearer ${login.body.token}` }, email, password }
}

const README_HEADER =
  '# Benchmarks\n\nEach benchmark reports ratios to a baseline measured in the same run (the machines are shared and noisy).\n\n'

/** Replaces the `<!-- name:start -->…<!-- name:end -->` section of bench/README.md (or appends it). */
export async function writeSection(name, section) {
  const readmePath = path.join(root, 'bench', 'README.md')
  const previous = await readFile(readmePath, 'utf8').catch(() => '')
  const pattern = new RegExp(`<!-- ${name}:start -->[\\s\\S]*<!-- ${name}:end -->`)
  const next = pattern.test(previous)
    ? previous.replace(pattern, () => section)
    : `${previous || README_HEADER}${section}\n`
  await writeFile(readmePath, next)
}

export async function readReadme() {
  return readFile(path.join(root, 'bench', 'README.md'), 'utf8').catch(() => '')
}

/** The bare Fastify baseline (bench/hello-server.mjs); `value` is its port. */
export const startBaseline = () =>
  start('node', ['bench/hello-server.mjs'], {}, (out) => out.match(/listening (\d+)/)?.[1])

/**
 * The built server on a fresh DATA_DIR and a random port (or `port`), rate limits off, no SMTP (emails go to
 * `DATA_DIR/mail`, where `verifiedUser` reads the verification links); `nodeArgs` go before the script.
 * `stop()` ends it and removes the directory.
 */
export async function startApp(
  env = {},
  { port = 20_000 + Math.floor(Math.random() * 20_000), nodeArgs = [] } = {},
) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'circles-bench-'))
  const app = await start(
    'node',
    // BENCH_CPU_PROF=<dir>: the server writes a CPU profile there when it stops (node --cpu-prof).
    [
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
      ...nodeArgs,
      'apps/server/dist/server.js',
    ],
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
  return {
    ...app,
    pid: app.child.pid,
    base: `http://127.0.0.1:${port}`,
    mailDir: path.join(dataDir, 'mail'),
    async stop() {
      app.child.kill('SIGTERM')
      await new Promise((resolve) => app.child.once('exit', resolve))
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** A fresh database on the PostgreSQL server of DATABASE_URL, dropped again at the end. */
export async function freshPostgresDatabase(serverUrl, prefix = 'circles_bench') {
  const { default: pg } = await import('pg')
  const name = `${prefix}_${process.pid}_${Date.now()}`
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
