// Issue 25: Prometheus metrics on a listener of their own (never on the public port without the token),
// and a request id on every answer that is also the `reqId` of the request's log lines.
import { randomBytes, randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { MESSAGES } from '@circles/shared'
import { sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isQueryError } from '../src/lib/metrics'
import { createSessionTokens } from '../src/modules/auth/session-token'
import { freePort } from './outage/private-postgres'
import { addMember, createCircle, signedIn } from './support/circles'
import { createItem, handOver } from './support/handovers'
import { openRaw } from './support/raw-http'
import { connectAs, listen, tokenOf } from './support/sockets'
import { TEST_JWT_SECRET, type TestApp, createTestApp } from './support/test-app'
import { appWithUnreachableDatabase } from './support/unreachable-database'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** One sample of the text format: `name{a="x",b="y"} value`. */
interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = []
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!match) throw new Error(`not a sample line: ${line}`)
    const labels: Record<string, string> = {}
    for (const [, key, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[key!] = value!
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) })
  }
  return samples
}

/** The value of the sample with this name and (at least) these labels; 0 when there is none yet. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  )
  return found.reduce((sum, s) => sum + s.value, 0)
}

async function scrape(app: FastifyInstance, token?: string) {
  const address = app.metricsAddress()
  if (!address) throw new Error('the metrics listener is off')
  const res = await fetch(`http://127.0.0.1:${address.port}/metrics`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  })
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() }
}

async function samplesOf(app: FastifyInstance) {
  const { status, text } = await scrape(app)
  expect(status).toBe(200)
  return parseMetrics(text)
}

/** Polls the metrics (bounded) until `ready` holds. */
async function eventually(app: FastifyInstance, ready: (samples: Sample[]) => boolean) {
  for (let i = 0; i < 200; i++) {
    const samples = await samplesOf(app)
    if (ready(samples)) return samples
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error('the metrics never got there')
}

/** Log lines as JSON, captured from the app's logger. */
const lines: Record<string, unknown>[] = []
const linesWith = (reqId: string) => lines.filter((line) => line.reqId === reqId)

describe('metrics on their own listener', () => {
  let t: TestApp
  let closedSmtpPort: number

  beforeAll(async () => {
    // Nobody listens there: every email fails to connect, certainly not sent, and waits for a retry.
    closedSmtpPort = await freePort()
    t = await createTestApp({
      env: { METRICS_PORT: '0', SMTP_URL: `smtp://127.0.0.1:${closedSmtpPort}`, SMTP_TIMEOUT_MS: '1000' },
      logStream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    })
  })
  afterAll(() => t.close())

  it('listens on 127.0.0.1 by default and serves the text format; nothing else there', async () => {
    expect(t.app.metricsAddress()?.address).toBe('127.0.0.1')
    const res = await scrape(t.app)
    expect(res.status).toBe(200)
    expect(res.type).toMatch(/^text\/plain; version=0\.0\.4/)
    const other = await fetch(`http://127.0.0.1:${t.app.metricsAddress()!.port}/api/health`)
    expect(other.status).toBe(404)
  })

  it('names every metric it serves in docs/operations.md and the Grafana dashboard', async () => {
    const { text } = await scrape(t.app)
    const names = [...text.matchAll(/^# TYPE (circles_\w+) /gm)].map((m) => m[1]!)
    expect(names.length).toBeGreaterThanOrEqual(10)
    const docs = new URL('../../../docs/', import.meta.url)
    const operations = await readFile(new URL('operations.md', docs), 'utf8')
    const dashboard = await readFile(new URL('grafana-dashboard.json', docs), 'utf8')
    const section = operations.slice(operations.indexOf('## Metrics and request ids'))
    for (const name of [
      ...names,
      'circles_db_pool_connections',
      'circles_db_pool_waiting',
      'circles_db_pool_max',
    ]) {
      expect(section, name).toContain(`\`${name}\``)
      expect(dashboard, name).toContain(name)
    }
  })

  it('is not on the public port: GET /metrics there is not found', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics' })
    expect(res.statusCode).toBe(404)
    expect(res.body).not.toContain('circles_http_requests_total')
  })

  it('counts requests by method, route pattern and status, never the raw URL', async () => {
    const token = randomBytes(32).toString('hex')
    const before = await samplesOf(t.app)
    const labels = { method: 'GET', route: '/api/health', status: '200' }
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200)
    const reset = await t.app.inject({ method: 'GET', url: `/api/users/verify-reset-token/${token}` })
    const notFound = await t.app.inject({ method: 'GET', url: `/api/no-such-thing/${token}` })
    expect(notFound.statusCode).toBe(404)

    const { text } = await scrape(t.app)
    const after = parseMetrics(text)
    expect(text).not.toContain(token)
    const requests = 'circles_http_requests_total'
    expect(valueOf(after, requests, labels) - valueOf(before, requests, labels)).toBe(1)
    expect(
      valueOf(after, requests, {
        method: 'GET',
        route: '/api/users/verify-reset-token/:token',
        status: String(reset.statusCode),
      }),
    ).toBe(1)
    expect(
      valueOf(after, requests, { method: 'GET', route: 'unmatched', status: '404' }),
    ).toBeGreaterThanOrEqual(1)
    const count = 'circles_http_request_duration_seconds_count'
    expect(valueOf(after, count, labels) - valueOf(before, count, labels)).toBe(1)
    const inf = after.find(
      (s) =>
        s.name === 'circles_http_request_duration_seconds_bucket' &&
        s.labels.route === '/api/health' &&
        s.labels.le === '+Inf',
    )
    expect(inf?.value).toBe(valueOf(after, count, labels))
    // Every route label is a pattern the app declares, or `unmatched`.
    for (const s of after.filter((s) => s.name === requests)) {
      expect(s.labels.route === 'unmatched' || s.labels.route!.startsWith('/')).toBe(true)
      expect(s.labels.route).not.toMatch(/[0-9a-f]{32}/)
    }
  })

  it('counts a real limiter refusal by name, and queues, tries and counts the outbox email', async () => {
    const who = await signedIn(t)
    const ask = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/users/request-password-reset',
        payload: { email: who.user.email },
      })
    // Three resets an hour per email (lib/rate-limits.ts, resetPerEmail); the fourth is refused.
    for (let i = 0; i < 3; i++) expect((await ask()).statusCode).toBe(200)
    const refused = await ask()
    expect(refused.statusCode).toBe(429)
    expect(refused.headers['x-request-id']).toMatch(UUID)

    const samples = await eventually(
      t.app,
      (s) => valueOf(s, 'circles_outbox_delivery_failures_total', { outcome: 'retry' }) >= 1,
    )
    expect(valueOf(samples, 'circles_rate_limit_refusals_total', { limiter: 'resetPerEmail' })).toBe(1)
    // The three emails wait for their retry (or one is being tried right now): the backlog.
    expect(
      valueOf(samples, 'circles_outbox_backlog', { status: 'pending' }) +
        valueOf(samples, 'circles_outbox_backlog', { status: 'sending' }),
    ).toBe(3)
    expect(valueOf(samples, 'circles_outbox_delivery_failures_total', { outcome: 'gave_up' })).toBe(0)
  })

  it('counts a ledger append and its time when a handover is confirmed', async () => {
    const admin = await signedIn(t, { name: 'Ada' })
    const member = await signedIn(t, { name: 'Ben' })
    const circle = await createCircle(t, admin)
    await addMember(t, admin, circle.id, member)
    const item = await createItem(t, admin, circle.id)
    const before = await samplesOf(t.app)
    await handOver(t, admin, member, item.id)
    const after = await samplesOf(t.app)
    const delta = (name: string) => valueOf(after, name) - valueOf(before, name)
    expect(delta('circles_ledger_appends_total')).toBe(1)
    expect(delta('circles_ledger_append_duration_seconds_count')).toBe(1)
    expect(delta('circles_ledger_append_duration_seconds_sum')).toBeGreaterThan(0)
  })

  it('reports connected sockets, the database pool and the process', async () => {
    const who = await signedIn(t)
    const url = await listen(t)
    const listener = await connectAs(url, tokenOf(who))
    try {
      const samples = await samplesOf(t.app)
      expect(valueOf(samples, 'circles_sockets_connected')).toBe(1)
      const kind = t.database.kind
      expect(valueOf(samples, 'circles_db_info', { kind })).toBe(1)
      if (kind === 'postgres') {
        expect(valueOf(samples, 'circles_db_pool_max')).toBe(4)
        const open =
          valueOf(samples, 'circles_db_pool_connections', { state: 'idle' }) +
          valueOf(samples, 'circles_db_pool_connections', { state: 'active' })
        expect(open).toBeGreaterThanOrEqual(1)
        expect(open).toBeLessThanOrEqual(4)
        expect(samples.some((s) => s.name === 'circles_db_pool_waiting')).toBe(true)
      } else {
        // The embedded database runs in this process: no pool to report.
        expect(samples.some((s) => s.name.startsWith('circles_db_pool_'))).toBe(false)
      }
      expect(valueOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000)
      expect(samples.some((s) => s.name === 'nodejs_eventloop_lag_seconds')).toBe(true)
      const { text } = await scrape(t.app)
      expect(text).toContain('# TYPE nodejs_gc_duration_seconds histogram')
      // Counters that have not moved yet are still there, at 0, so alerts can use rate() at once.
      expect(
        samples.some((s) => s.name === 'circles_db_errors_total' && s.labels.kind === 'unavailable'),
      ).toBe(true)
    } finally {
      listener.close()
    }
    const after = await eventually(t.app, (s) => valueOf(s, 'circles_sockets_connected') === 0)
    expect(valueOf(after, 'circles_sockets_connected')).toBe(0)
  })

  it('tells a query the database refused from a bug, on this driver', async () => {
    const failed = await t.database.db.execute(sql`select 1 / 0`).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(isQueryError(failed)).toBe(true)
    expect(isQueryError(new TypeError('x is undefined'))).toBe(false)
  })

  it('puts x-request-id on every answer, and the same id in the log line of that request', async () => {
    const who = await signedIn(t)
    const answers = [
      await t.app.inject({ method: 'GET', url: '/api/health' }),
      await t.app.inject({ method: 'GET', url: '/api/circles', headers: who.auth }),
      await t.app.inject({ method: 'GET', url: '/api/circles' }),
      await t.app.inject({ method: 'GET', url: '/api/nowhere' }),
      await t.app.inject({ method: 'POST', url: '/api/circles', headers: who.auth, payload: {} }),
      await t.app.inject({
        method: 'POST',
        url: '/api/circles',
        headers: { ...who.auth, 'content-type': 'application/json' },
        payload: '{"name":',
      }),
      // A path Fastify refuses before routing (not UTF-8): answered by frameworkErrors.
      await t.app.inject({ method: 'GET', url: '/api/circles/%ED%A0%80' }),
    ]
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 401, 404, 400, 400, 400])
    const ids = answers.map((a) => a.headers['x-request-id'])
    for (const id of ids) expect(id).toMatch(UUID)
    expect(new Set(ids).size).toBe(ids.length)
    // The request log (debug) names each routed request by the id its answer carried.
    for (const answer of answers.slice(0, 6)) {
      const id = answer.headers['x-request-id'] as string
      expect(linesWith(id)).toContainEqual(
        expect.objectContaining({ msg: 'request', status: answer.statusCode, reqId: id }),
      )
    }
  })

  it('keeps no id a client sends when no proxy is trusted', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'my-own-id' },
    })
    expect(res.headers['x-request-id']).toMatch(UUID)
  })
})

describe('metrics behind METRICS_TOKEN', () => {
  const metricsToken = randomBytes(24).toString('base64url')
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({
      env: { METRICS_PORT: '0', METRICS_TOKEN: metricsToken, TRUST_PROXY: '127.0.0.1' },
    })
  })
  afterAll(() => t.close())

  it('wants the bearer token on the listener and on the public port', async () => {
    expect((await scrape(t.app)).status).toBe(401)
    expect((await scrape(t.app, 'wrong-token-wrong-token')).status).toBe(401)
    const listener = await scrape(t.app, metricsToken)
    expect(listener.status).toBe(200)
    expect(listener.text).toContain('circles_http_requests_total')

    const anonymous = await t.app.inject({ method: 'GET', url: '/metrics' })
    expect(anonymous.statusCode).toBe(401)
    expect(anonymous.json()).toMatchObject({ code: 'UNAUTHORIZED', message: MESSAGES.unauthorized })
    expect(anonymous.body).not.toContain('circles_')
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${metricsToken}x` },
    })
    expect(wrong.statusCode).toBe(401)
    const right = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${metricsToken}` },
    })
    expect(right.statusCode).toBe(200)
    expect(right.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
    expect(right.body).toContain('circles_http_requests_total{method="GET",route="/metrics",status="401"}')
  })

  it('keeps a safe x-request-id from the trusted proxy, replaces anything else', async () => {
    const idFor = async (given: string) =>
      (await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': given } })).headers[
        'x-request-id'
      ]
    expect(await idFor('nginx-3f2a9c.17:x_1')).toBe('nginx-3f2a9c.17:x_1')
    const uuid = randomUUID()
    expect(await idFor(uuid)).toBe(uuid)
    for (const unsafe of [
      'a'.repeat(65),
      'two words',
      '-starts-with-a-dash',
      '{"msg":"injected"}',
      // Shaped like a token: the log would mask it, so it could not be found there.
      'f'.repeat(64),
    ]) {
      expect(await idFor(unsafe)).toMatch(UUID)
    }
  })
})

describe('metrics off (the default), a proxy trusted elsewhere', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({
      env: { TRUST_PROXY: '10.0.0.1', HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '20000' },
      logStream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    })
  })
  afterAll(() => t.close())

  it('has no listener and no /metrics route', async () => {
    expect(t.app.metricsAddress()).toBeNull()
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404)
  })

  it('still gives ids, but keeps none from a peer that is not the trusted proxy', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'nginx-3f2a9c' },
    })
    expect(res.headers['x-request-id']).toMatch(UUID)
  })

  it('answers a request whose headers never end with 408 and an id, logged with that id', async () => {
    const client = await openRaw(await listen(t))
    client.socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n')
    const { answer } = await client.closed
    expect(answer).toMatch(/^HTTP\/1\.1 408 /)
    const id = /\r\nX-Request-Id: ([^\r]+)\r\n/i.exec(answer)?.[1]
    expect(id).toMatch(UUID)
    expect(linesWith(id!)).toContainEqual(expect.objectContaining({ code: 'ERR_HTTP_REQUEST_TIMEOUT' }))
  })
})

describe('while the database is unreachable', () => {
  let app: FastifyInstance
  let close: () => Promise<void>
  const outageLines: Record<string, unknown>[] = []

  beforeAll(async () => {
    ;({ app, close } = await appWithUnreachableDatabase(
      { LOG_LEVEL: 'info', METRICS_PORT: '0' },
      { write: (line: string) => void outageLines.push(JSON.parse(line) as Record<string, unknown>) },
    ))
  })
  afterAll(() => close())

  it('answers 503 with an id that is in its log line, counts it, and still serves the metrics', async () => {
    const token = createSessionTokens(TEST_JWT_SECRET).issue({ userId: randomUUID(), sv: 0 })
    const res = await app.inject({
      method: 'GET',
      url: '/api/circles',
      headers: { authorization: `Bearer ${token}` },
    })
    expect(res.statusCode).toBe(503)
    const id = res.headers['x-request-id'] as string
    expect(id).toMatch(UUID)
    expect(outageLines).toContainEqual(
      expect.objectContaining({ reqId: id, msg: 'request failed: database unavailable' }),
    )

    const samples = await samplesOf(app)
    expect(valueOf(samples, 'circles_db_errors_total', { kind: 'unavailable' })).toBe(1)
    expect(valueOf(samples, 'circles_http_requests_total', { route: '/api/circles', status: '503' })).toBe(1)
    // The backlog cannot be counted now: no figure rather than a wrong one.
    expect(samples.some((s) => s.name === 'circles_outbox_backlog')).toBe(false)
  })
})
