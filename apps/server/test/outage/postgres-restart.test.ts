import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { MESSAGES, type THandover } from '@circles/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Database, fromPostgres } from '../../src/db/client'
import { migratePostgres } from '../../src/db/migrate'
import { createSessionTokens } from '../../src/modules/auth/session-token'
import { createUser } from '../support/factories'
import { type Listener, connectAs } from '../support/sockets'
import { type PrivatePostgres, freePort, startPrivatePostgres } from './private-postgres'
import { type ServerProcess, startServerProcess } from './server-process'

/**
 * Issue 22: a PostgreSQL restart used to end every server process (an unhandled 'error' from the
 * socket.io adapter's LISTEN connection). Two real server processes on a private cluster, under load,
 * through a fast restart: they stay up, answer 503 with a message while the database is away (ready
 * 503, health 200), recover by themselves, and fan real-time events out across instances again.
 */

const JWT_SECRET = randomBytes(32).toString('hex')
const SECRET_MESSAGE = `the key is under the mat ${randomBytes(6).toString('hex')}`

type Instance = ServerProcess

const servers: Instance[] = []

/** Fails at once, with its log, if a server process ended. */
function assertAlive() {
  for (const server of servers) {
    if (server.process.exitCode !== null || server.process.signalCode !== null) {
      throw new Error(
        `the server at ${server.url} exited (${server.process.exitCode ?? server.process.signalCode}):\n` +
          server.output.join('').slice(-3000),
      )
    }
  }
}

/** Polls `check` until it holds; fails after `ms`, or as soon as a server process is gone. */
async function until(what: string, check: () => Promise<boolean>, ms = 15_000) {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    assertAlive()
    if (await check().catch(() => false)) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`${what}: not within ${ms} ms`)
}

async function startServer(databaseUrl: string, dataDir: string): Promise<Instance> {
  const port = await freePort()
  return startServerProcess(
    port,
    {
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      JWT_SECRET,
      LOG_LEVEL: 'info',
      OUTBOX_INTERVAL_MS: '200',
      PLAN_LIMITS: 'off',
    },
    30_000,
  )
}

function call(instance: Instance, method: string, url: string, token?: string, body?: unknown) {
  return fetch(`${instance.url}${url}`, {
    method,
    headers: {
      ...(token && { authorization: `Bearer ${token}` }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}

async function ok<T>(response: Promise<Response>, status = 200): Promise<T> {
  const res = await response
  const text = await res.text()
  if (res.status !== status) throw new Error(`${res.url}: ${res.status} ${text}`)
  return JSON.parse(text) as T
}

describe('a PostgreSQL restart under load, two server processes', () => {
  let cluster: PrivatePostgres
  let dataDir: string
  let database: Database
  const sockets: Listener[] = []

  beforeAll(async () => {
    cluster = await startPrivatePostgres()
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'circles-outage-'))
    await migratePostgres(cluster.url)
    // One after the other: the second finds the ledger key the first generated in the shared DATA_DIR.
    servers.push(await startServer(cluster.url, dataDir))
    servers.push(await startServer(cluster.url, dataDir))
    database = fromPostgres(cluster.url, 2)
  }, 90_000)

  afterAll(async () => {
    for (const socket of sockets) socket.close()
    for (const server of servers) server.process.kill('SIGTERM')
    await Promise.all(
      servers.map((s) =>
        s.process.exitCode === null ? new Promise((r) => s.process.once('exit', r)) : null,
      ),
    )
    await database?.close()
    await cluster?.destroy()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  }, 60_000)

  it('keeps both processes up, answers 503 while the database is away, and recovers with fan-out', async () => {
    const [a, b] = servers as [Instance, Instance]
    const tokens = createSessionTokens(JWT_SECRET)
    const ada = await createUser(database, { name: 'Ada' })
    const ben = await createUser(database, { name: 'Ben' })
    const adaToken = tokens.issue({ userId: ada.id, sv: ada.sessionVersion })
    const benToken = tokens.issue({ userId: ben.id, sv: ben.sessionVersion })

    const { circle } = await ok<{ circle: { id: string } }>(
      call(a, 'POST', '/api/circles', adaToken, { name: 'Workshop', description: 'Tools' }),
      201,
    )
    const { invitation } = await ok<{ invitation: { token: string } }>(
      call(a, 'POST', `/api/circles/${circle.id}/invitations/qr`, adaToken, { email: ben.email }),
      201,
    )
    await ok(call(b, 'POST', `/api/circles/invitations/${invitation.token}`, benToken))
    const { item } = await ok<{ item: { id: string } }>(
      call(a, 'POST', '/api/items', adaToken, { name: 'Ladder', circleId: circle.id }),
      201,
    )

    // Both people are connected to the second instance, and stay connected through the restart.
    const adaOnB = await connectAs(b.url, adaToken)
    const benOnB = await connectAs(b.url, benToken)
    sockets.push(adaOnB, benOnB)

    // Load: reads and writes on both instances until the end of the test.
    const answers: { status: number; body: string }[] = []
    const failures: string[] = []
    let loading = true
    const load = [a, b].flatMap((server, i) =>
      [0, 1].map(async (j) => {
        try {
          let n = 0
          while (loading) {
            const token = i === 0 ? adaToken : benToken
            const res = await (j === 0
              ? call(server, 'GET', '/api/circles', token)
              : call(server, 'PUT', '/api/users/me', token, { name: `Name ${n++}` }))
            answers.push({ status: res.status, body: await res.text() })
            // Paced below the per-address API ceiling (1200 a minute): the point is concurrency, not 429s.
            await new Promise((r) => setTimeout(r, 60))
          }
        } catch (error) {
          failures.push(`${server.url}: ${(error as Error).message}`)
        }
      }),
    )
    await until('load answered', async () => answers.length >= 8)

    await cluster.stop()
    for (const server of [a, b]) {
      await until('a 503 while the database is down', async () => {
        const res = await call(server, 'GET', '/api/circles', adaToken)
        return res.status === 503
      })
      const res = await call(server, 'GET', '/api/circles', adaToken)
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBe('5')
      expect(await res.json()).toEqual({
        message: MESSAGES.serviceUnavailable,
        code: 'SERVICE_UNAVAILABLE',
        key: 'serviceUnavailable',
      })
      const write = await call(server, 'PUT', '/api/users/me', benToken, { name: 'Offline' })
      expect(write.status).toBe(503)
      const ready = await call(server, 'GET', '/api/ready')
      expect(ready.status).toBe(503)
      expect(await ready.json()).toMatchObject({ status: 'not_ready', database: false })
      expect((await call(server, 'GET', '/api/health')).status).toBe(200)
    }

    await cluster.start()
    const restartedAt = Date.now()
    // Ready again includes the adapter's LISTEN connection: from here on fan-out works.
    await Promise.all(
      [a, b].map((server) =>
        until('ready after the restart', async () => (await call(server, 'GET', '/api/ready')).ok),
      ),
    )
    // Within seconds of the database's return, with no restart.
    expect(Date.now() - restartedAt).toBeLessThan(10_000)
    const afterRecovery = answers.length
    await until('load answered after the restart', async () =>
      answers.slice(afterRecovery).some((answer) => answer.status === 200),
    )

    // A handover requested and confirmed on the first instance reaches both people on the second, live.
    const { handover } = await ok<{ handover: THandover }>(
      call(a, 'POST', '/api/handovers', adaToken, {
        itemId: item.id,
        receiverId: ben.id,
        secretMessage: SECRET_MESSAGE,
      }),
      201,
    )
    await benOnB.next<{ handoverId: string; status: string }>(
      'handover_update',
      (p) => p.handoverId === handover.id && p.status === 'PENDING',
    )
    await ok(call(a, 'PUT', `/api/handovers/${handover.id}/status`, benToken, { status: 'CONFIRMED' }))
    await adaOnB.next<{ handoverId: string; status: string }>(
      'handover_update',
      (p) => p.handoverId === handover.id && p.status === 'CONFIRMED',
    )
    expect(adaOnB.socket.connected && benOnB.socket.connected).toBe(true)

    loading = false
    await Promise.all(load)

    // Both processes lived through it, and every answer under load was a success or a 503 that says why.
    assertAlive()
    expect(failures).toEqual([])
    for (const server of [a, b]) {
      expect(server.process.exitCode).toBeNull()
      expect((await call(server, 'GET', '/api/health')).status).toBe(200)
    }
    const statuses = new Set(answers.map((answer) => answer.status))
    expect([...statuses].sort()).toEqual([200, 503])
    for (const answer of answers.filter((x) => x.status === 503)) {
      expect(JSON.parse(answer.body)).toEqual({
        message: MESSAGES.serviceUnavailable,
        code: 'SERVICE_UNAVAILABLE',
        key: 'serviceUnavailable',
      })
    }
    // The outage is logged, without secrets.
    const log = servers.flatMap((s) => s.output).join('')
    expect(log).toContain('database unavailable')
    expect(log).not.toContain(JWT_SECRET)
    expect(log).not.toContain(SECRET_MESSAGE)
  }, 60_000)
})
