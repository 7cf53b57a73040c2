// Real-time delivery benchmark (issue 12), on PostgreSQL (DATABASE_URL): how long from a handover
// confirmation until the other party's socket has the handover_update, with 1,000 sockets connected,
// on one instance and across two (the receiver confirms on the second, the sender listens on the first).
// Beside it, in the same run, a bare socket.io relay over the same number of sockets and the same
// adapter. Written to bench/README.md. BENCH_REALTIME_SOCKETS (1000) and BENCH_REALTIME_ROUNDS (300).
import { randomBytes } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { io as connect } from 'socket.io-client'
import { children, freshPostgresDatabase, start, startApp, verifiedUser, writeSection } from './lib.mjs'

const SOCKETS = Number(process.env.BENCH_REALTIME_SOCKETS ?? 1000)
const ROUNDS = Number(process.env.BENCH_REALTIME_ROUNDS ?? 300)
const WARMUP = 20

if (!process.env.DATABASE_URL) {
  console.log('DATABASE_URL is not set: the real-time benchmark runs on PostgreSQL only; nothing measured')
  process.exit(0)
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b)
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) }
}

function socketTo(base, auth) {
  const socket = connect(base, { path: '/socket.io', auth, transports: ['websocket'], reconnection: false })
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket))
    socket.once('connect_error', reject)
  })
}

/** `count` sockets spread over the servers, held by a child process (bench/socket-crowd.mjs). */
async function crowd(bases, count, auth) {
  const child = await start(
    'node',
    ['bench/socket-crowd.mjs'],
    { CROWD_URLS: bases.join(','), CROWD_SIZE: String(count), CROWD_AUTH: JSON.stringify(auth) },
    (out) => out.includes('ready'),
  )
  return { close: () => child.child.kill('SIGTERM') }
}

/** The next `event` on `socket` matching `match`, with its arrival time. */
function next(socket, event, match) {
  return new Promise((resolve) => {
    const on = (payload) => {
      if (!match(payload)) return
      socket.off(event, on)
      resolve(performance.now())
    }
    socket.on(event, on)
  })
}

async function call(base, method, url, auth, body) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: body ? { 'content-type': 'application/json', ...auth } : auth,
    body: body ? JSON.stringify(body) : undefined,
  })
  const text = await res.text()
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`)
  return JSON.parse(text)
}

/** Circles: Ida (socket on the first server) hands items to Ben, who confirms on the last server. */
async function measureCircles(instances) {
  const database = await freshPostgresDatabase(process.env.DATABASE_URL)
  const env = { DATABASE_URL: database.url, JWT_SECRET: randomBytes(32).toString('hex'), PLAN_LIMITS: 'off' }
  const apps = []
  const sockets = []
  try {
    for (let i = 0; i < instances; i++) apps.push(await startApp(env))
    const [first, last] = [apps[0], apps.at(-1)]
    const ida = await verifiedUser(first.base, first, 'ida@bench.test')
    const ben = await verifiedUser(first.base, first, 'ben@bench.test')
    const many = await verifiedUser(first.base, first, 'crowd@bench.test')
    const { circle } = await call(first.base, 'POST', '/api/circles', ida.auth, { name: 'Bench circle' })
    for (const member of [ben, many]) {
      const { invitation } = await call(
        first.base,
        'POST',
        `/api/circles/${circle.id}/invitations/qr`,
        ida.auth,
        {
          email: member.email,
        },
      )
      await call(first.base, 'POST', `/api/circles/invitations/${invitation.token}`, member.auth)
    }
    const token = (who) => ({ token: who.auth.authorization.slice('Bearer '.length) })
    // Ida listens on the first server; the crowd (members too, so every change reaches them) on all.
    const idaSocket = await socketTo(first.base, token(ida))
    sockets.push(
      idaSocket,
      await crowd(
        apps.map((a) => a.base),
        SOCKETS - 1,
        token(many),
      ),
    )

    const latencies = []
    const roundTrips = []
    const afterAnswer = []
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      const { item } = await call(first.base, 'POST', '/api/items', ida.auth, {
        name: `Thing ${round}`,
        circleId: circle.id,
      })
      const { handover } = await call(first.base, 'POST', '/api/handovers', ida.auth, {
        itemId: item.id,
        receiverId: ben.user.id,
      })
      const arrived = next(
        idaSocket,
        'handover_update',
        (p) => p.handoverId === handover.id && p.status === 'CONFIRMED',
      )
      const sent = performance.now()
      await call(last.base, 'PUT', `/api/handovers/${handover.id}/status`, ben.auth, { status: 'CONFIRMED' })
      const answered = performance.now()
      const at = await arrived
      if (round >= WARMUP) {
        latencies.push(at - sent)
        roundTrips.push(answered - sent)
        afterAnswer.push(at - answered)
      }
    }
    return { delivery: summary(latencies), roundTrip: summary(roundTrips), afterAnswer: summary(afterAnswer) }
  } finally {
    for (const s of sockets) s.close()
    for (const app of apps) await app.stop()
    await database.drop()
  }
}

/** The bare relay: a client on the first server sends, a client on the last one receives. */
async function measureEcho(instances) {
  const database = await freshPostgresDatabase(process.env.DATABASE_URL)
  const servers = []
  const sockets = []
  try {
    for (let i = 0; i < instances; i++) {
      const server = await start(
        'node',
        ['bench/socket-echo-server.mjs'],
        { DATABASE_URL: database.url },
        (out) => out.match(/listening (\d+)/)?.[1],
      )
      servers.push(`http://127.0.0.1:${server.value}`)
    }
    const sender = await socketTo(servers[0], { room: 'sender' })
    const receiver = await socketTo(servers.at(-1), { room: 'receiver' })
    sockets.push(sender, receiver, await crowd(servers, SOCKETS - 2, { room: 'crowd' }))
    // The adapter learns of its peers through heartbeats; give it a moment.
    await new Promise((r) => setTimeout(r, instances > 1 ? 6000 : 200))
    const latencies = []
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      const arrived = next(receiver, 'relayed', (p) => p === round)
      const sent = performance.now()
      sender.emit('relay', { room: 'receiver', payload: round })
      const at = await arrived
      if (round >= WARMUP) latencies.push(at - sent)
    }
    return summary(latencies)
  } finally {
    for (const s of sockets) s.close()
    for (const child of children.splice(0)) child.kill('SIGTERM')
    await database.drop()
  }
}

const fmt = (ms) => ms.toFixed(1)
const rows = []
for (const instances of [1, 2]) {
  const echo = await measureEcho(instances)
  const circles = await measureCircles(instances)
  rows.push({ instances, echo, circles })
  console.log(instances, JSON.stringify({ echo, circles }))
}

const target = { 1: 10, 2: 50 }
const table = rows
  .map(
    ({ instances, echo, circles }) =>
      `| ${instances === 1 ? 'one instance' : 'two instances'} | ${fmt(echo.p50)} | ${fmt(echo.p99)} | ` +
      `${fmt(circles.roundTrip.p50)} | ${fmt(circles.afterAnswer.p50)} | ${fmt(circles.afterAnswer.p99)} | ` +
      `${fmt(circles.delivery.p50)} | ${fmt(circles.delivery.p99)} | ` +
      `${(circles.delivery.p99 / echo.p99).toFixed(1)} | ≤ ${target[instances]} ms: ${circles.delivery.p99 <= target[instances] ? 'met' : 'not met'} |`,
  )
  .join('\n')

await writeSection(
  'realtime',
  `<!-- realtime:start -->
## Real-time delivery (\`npm run bench:realtime\`)

Measured ${new Date().toISOString().slice(0, 10)} on ${(await import('node:os')).cpus().length} cores, Node ${process.version},
PostgreSQL (a fresh database per row, dropped afterwards), ${SOCKETS} connected sockets (websocket),
${ROUNDS} rounds after ${WARMUP} warm-up rounds, one at a time. **Circles**: Ben confirms a handover
(\`PUT /api/handovers/:id/status\`, on the second instance when there are two); the time runs from sending
that request until Ida's socket (on the first instance) has the \`handover_update\`. It includes the
confirmation itself (the ledger append, its transaction), shown alone as the round trip; "event after
the answer" is the time from Ben's HTTP answer to Ida's event (negative when the event came first). The
crowd of sockets, held by a separate process, are members of the circle, so each confirmation also
sends \`item_update\` to all of them.
**Baseline**: a bare socket.io server with the same adapter relays a message from a client on the first
instance to a client on the last, the same number of sockets connected.

| | echo p50 ms | echo p99 ms | confirm round trip p50 ms | event after the answer p50 ms | p99 ms | delivery p50 ms | delivery p99 ms | delivery p99 / echo p99 | target (delivery p99) |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---|
${table}
<!-- realtime:end -->`,
)
process.exit(0)
