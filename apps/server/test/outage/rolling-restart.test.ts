import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import http, { type IncomingHttpHeaders } from 'node:http'
import { connect as tcpConnect } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { ClientToServerEvents, ServerToClientEvents, SocketAuth, TActivity } from '@circles/shared'
import { type Socket, io as connectSocket } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Database, fromPostgres } from '../../src/db/client'
import { migratePostgres } from '../../src/db/migrate'
import { createSessionTokens } from '../../src/modules/auth/session-token'
import { createUser } from '../support/factories'
import { type PrivatePostgres, freePort, startPrivatePostgres } from './private-postgres'
import { type ServerProcess, startServerProcess } from './server-process'

/**
 * Issue 25, "Restarts without losing requests": two real server processes on one PostgreSQL behind a
 * small load balancer (below), under steady load of reads and writes, with a socket.io client listening
 * for a user's events. Instance A is restarted (SIGTERM, exit, start, ready), then B. Not one request
 * fails, and the client, reconnected, has received every event the writes caused.
 */

const JWT_SECRET = randomBytes(32).toString('hex')
/** What the load balancer needs to notice readiness (it asks every 100 ms). */
const DRAIN_MS = 1000

const allOutputs: [number, string[]][] = []

type Instance = ServerProcess

async function until(what: string, check: () => Promise<boolean> | boolean, ms = 30_000) {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (await Promise.resolve(check()).catch(() => false)) return
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`${what}: not within ${ms} ms`)
}

async function startServer(port: number, databaseUrl: string, dataDir: string): Promise<Instance> {
  const instance = await startServerProcess(port, {
    PUBLIC_URL: 'http://127.0.0.1',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    JWT_SECRET,
    LOG_LEVEL: 'info',
    OUTBOX_INTERVAL_MS: '200',
    PLAN_LIMITS: 'off',
    // Every request comes from the load balancer's one address.
    RATE_LIMITS: 'off',
    SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
    SHUTDOWN_TIMEOUT_MS: '10000',
  })
  allOutputs.push([port, instance.output])
  return instance
}

/** SIGTERM, and the exit code once it exited. */
function stopServer(instance: Instance): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) =>
    instance.process.once('exit', (code) => resolve(code)),
  )
  instance.process.kill('SIGTERM')
  return exited
}

/**
 * A load balancer as operators run one (HAProxy, nginx, a cloud's): round robin over the upstreams its
 * health checks find ready (`/api/ready` every 100 ms); a connection refused before any byte was sent is
 * tried on the other upstream; socket.io is sticky (the engine.io session id, learned from the
 * handshake's answer, names its upstream), and websocket upgrades are piped through.
 */
function startProxy(ports: number[]) {
  const healthy = new Map(ports.map((port) => [port, true]))
  const sticky = new Map<string, number>()
  let next = 0
  const checks = setInterval(() => {
    for (const port of ports) {
      const req = http.get({ host: '127.0.0.1', port, path: '/api/ready', agent: false }, (res) => {
        healthy.set(port, res.statusCode === 200)
        res.resume()
      })
      // Down when it says so (503) or refuses; a check that is merely slow changes nothing.
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'ECONNREFUSED') healthy.set(port, false)
      })
      req.setTimeout(2000, () => req.destroy())
    }
  }, 100)
  const pick = (): number[] => {
    const up = ports.filter((port) => healthy.get(port))
    const order = up.length > 0 ? up : ports
    const first = order[next++ % order.length]!
    return [first, ...ports.filter((port) => port !== first)]
  }
  const sidOf = (url: string) => new URL(url, 'http://proxy').searchParams.get('sid')

  const forward = (
    port: number,
    req: http.IncomingMessage,
    body: Buffer,
  ): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const headers = { ...req.headers }
      delete headers.connection
      const upstream = http.request(
        { host: '127.0.0.1', port, method: req.method, path: req.url, headers, agent: false },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('end', () =>
            resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
          )
          res.on('error', reject)
        },
      )
      upstream.on('error', reject)
      upstream.end(body)
    })

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', async () => {
      const body = Buffer.concat(chunks)
      const sid = req.url?.startsWith('/socket.io') ? sidOf(req.url) : null
      const stuck = sid ? sticky.get(sid) : undefined
      const candidates = stuck !== undefined ? [stuck] : pick()
      for (const port of candidates) {
        try {
          const answer = await forward(port, req, body)
          if (req.url?.startsWith('/socket.io') && !sid) {
            const handshake = /"sid":"([^"]+)"/.exec(answer.body.toString())
            if (handshake) sticky.set(handshake[1]!, port)
          }
          const headers = { ...answer.headers }
          delete headers.connection
          delete headers['transfer-encoding']
          headers['content-length'] = String(answer.body.length)
          res.writeHead(answer.status, headers)
          res.end(answer.body)
          return
        } catch (error) {
          // Refused: nothing reached that upstream, the next one may take it. Anything else is an error.
          if ((error as NodeJS.ErrnoException).code === 'ECONNREFUSED') continue
          res.writeHead(502).end(`proxy: upstream ${port}: ${(error as Error).message}`)
          return
        }
      }
      res.writeHead(502).end('proxy: no upstream')
    })
  })
  server.on('upgrade', (req: http.IncomingMessage, client, head: Buffer) => {
    const sid = sidOf(req.url ?? '')
    const port = (sid && sticky.get(sid)) || pick()[0]!
    const upstream = tcpConnect(port, '127.0.0.1', () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`]
      for (let i = 0; i < req.rawHeaders.length; i += 2)
        lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`)
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`)
      upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    upstream.on('error', () => client.destroy())
    client.on('error', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
    client.on('close', () => upstream.destroy())
  })
  return new Promise<{ url: string; close(): Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            clearInterval(checks)
            server.closeAllConnections()
            server.close(() => done())
          }),
      })
    })
  })
}

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>

/**
 * A socket.io client that behaves as the web app's (apps/web/src/lib/realtime): it reconnects after a
 * disconnect it did not ask for (within the server's window after `reconnect_soon`), sends the last
 * event id it saw, and skips an event it has already seen.
 */
function listenAs(url: string, token: string) {
  const seen = new Set<number>()
  const events: { event: string; payload: unknown }[] = []
  let first: number | undefined
  let last: number | undefined
  let soonWithinMs: number | undefined
  let connects = 0
  let stopped = false
  const socket: ClientSocket = connectSocket(url, {
    path: '/socket.io',
    auth: (send: (auth: SocketAuth) => void) =>
      send({ token, ...(last === undefined ? {} : { lastEventId: last, firstEventId: first }) }),
    transports: ['polling', 'websocket'],
    reconnection: false,
    forceNew: true,
  })
  socket.on('connected', ({ lastEventId }) => {
    connects += 1
    if (lastEventId === undefined) return
    first ??= lastEventId
    last = Math.max(last ?? 0, lastEventId)
  })
  socket.onAny((event: string, payload: unknown, id?: unknown) => {
    if (typeof id === 'number') {
      if (seen.has(id)) return
      seen.add(id)
      last = Math.max(last ?? 0, id)
    }
    events.push({ event, payload })
  })
  socket.on('reconnect_soon', ({ withinMs }) => (soonWithinMs = withinMs))
  const again = () => {
    if (stopped) return
    const wait = soonWithinMs === undefined ? 500 : Math.random() * soonWithinMs
    soonWithinMs = undefined
    setTimeout(() => {
      if (!stopped) socket.connect()
    }, wait)
  }
  socket.on('disconnect', (reason) => {
    if (reason !== 'io client disconnect') again()
  })
  socket.on('connect_error', again)
  return {
    events,
    connects: () => connects,
    connected: () => socket.connected && connects > 0,
    close() {
      stopped = true
      socket.close()
    },
  }
}

describe('a rolling restart of two instances behind a load balancer, under load', () => {
  let listener: ReturnType<typeof listenAs> | undefined
  let cluster: PrivatePostgres
  let dataDir: string
  let database: Database
  let proxy: { url: string; close(): Promise<void> }
  const instances: Instance[] = []

  beforeAll(async () => {
    cluster = await startPrivatePostgres()
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'circles-rolling-'))
    await migratePostgres(cluster.url)
    const ports = [await freePort(), await freePort()]
    // One after the other: the second finds the ledger key the first generated in the shared DATA_DIR.
    for (const port of ports) instances.push(await startServer(port, cluster.url, dataDir))
    proxy = await startProxy(ports)
    database = fromPostgres(cluster.url, 2)
  }, 120_000)

  afterAll(async () => {
    listener?.close()
    await proxy?.close()
    await Promise.all(instances.map((i) => (i.process.exitCode === null ? stopServer(i) : null)))
    await database?.close()
    await cluster?.destroy()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  }, 60_000)

  it('answers every request and delivers every event while A, then B, restarts', async () => {
    const startedAt = Date.now()
    const tokens = createSessionTokens(JWT_SECRET)
    const ada = await createUser(database, { name: 'Ada' })
    const ben = await createUser(database, { name: 'Ben' })
    const adaToken = tokens.issue({ userId: ada.id, sv: ada.sessionVersion })
    const benToken = tokens.issue({ userId: ben.id, sv: ben.sessionVersion })

    const call = async (method: string, url: string, token: string, body?: unknown) => {
      const res = await fetch(`${proxy.url}${url}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      return { status: res.status, body: await res.text() }
    }
    const ok = async <T>(answer: Promise<{ status: number; body: string }>, status: number) => {
      const { status: got, body } = await answer
      if (got !== status) throw new Error(`${got} ${body}`)
      return JSON.parse(body) as T
    }

    const { circle } = await ok<{ circle: { id: string } }>(
      call('POST', '/api/circles', adaToken, { name: 'Workshop', description: 'Tools' }),
      201,
    )
    const { invitation } = await ok<{ invitation: { token: string } }>(
      call('POST', `/api/circles/${circle.id}/invitations/qr`, adaToken, { email: ben.email }),
      201,
    )
    await ok(call('POST', `/api/circles/invitations/${invitation.token}`, benToken), 200)

    const socket = listenAs(proxy.url, benToken)
    listener = socket
    await until('the socket connected', () => socket.connected(), 10_000)

    // Steady load through the load balancer: a read every 50 ms, an item every 100 ms, and a request
    // to hand Ben an item every 300 ms. Each write's answer says which events Ben must receive.
    const failures: string[] = []
    const expected = new Set<string>()
    const items: string[] = []
    let answered = 0
    const inFlight = new Set<Promise<void>>()
    const request = (
      what: string,
      status: number,
      run: () => Promise<{ status: number; body: string }>,
      then?: (body: unknown) => void,
    ) => {
      const done = run()
        .then((answer) => {
          if (answer.status !== status)
            failures.push(`${what}: ${answer.status} ${answer.body.slice(0, 200)}`)
          else then?.(JSON.parse(answer.body))
          answered += 1
        })
        .catch((error: unknown) => void failures.push(`${what}: ${(error as Error).message}`))
        .finally(() => inFlight.delete(done))
      inFlight.add(done)
    }
    let tick = 0
    const load = setInterval(() => {
      tick += 1
      request('read circles', 200, () => call('GET', '/api/circles', benToken))
      if (tick % 2 === 0) {
        request(
          'create item',
          201,
          () => call('POST', '/api/items', adaToken, { name: `Thing ${tick}`, circleId: circle.id }),
          (body) => {
            const { item } = body as { item: { id: string } }
            items.push(item.id)
            expected.add(`item_update ${item.id}`)
            expected.add(`new_activity NEW_ITEM ${item.id}`)
          },
        )
      }
      if (tick % 6 === 3 && items.length > 0) {
        const itemId = items.shift()!
        request(
          'request handover',
          201,
          () => call('POST', '/api/handovers', adaToken, { itemId, receiverId: ben.id }),
          (body) => {
            const { handover } = body as { handover: { id: string } }
            expected.add(`handover_update PENDING ${handover.id}`)
            expected.add(`new_activity PENDING_HANDOVER ${handover.id}`)
          },
        )
      }
    }, 50)

    const restart = async (index: number) => {
      const instance = instances[index]!
      const before = answered
      await until('load answered before the restart', () => answered >= before + 20)
      expect(await stopServer(instance)).toBe(0)
      instances[index] = await startServer(instance.port, cluster.url, dataDir)
    }
    try {
      await restart(0)
      await restart(1)
      const after = answered
      await until('load answered after both restarts', () => answered >= after + 20)
    } finally {
      clearInterval(load)
    }
    await Promise.all([...inFlight])

    if (failures.length > 0) {
      console.error(allOutputs.map(([port, out]) => `${port}: ${out.join('').slice(-3000)}`).join('\n'))
    }
    expect(failures).toEqual([])
    expect(expected.size).toBeGreaterThan(20)
    const received = () =>
      new Set(
        socket.events.map(({ event, payload }) => {
          if (event === 'item_update') return `item_update ${(payload as { itemId: string }).itemId}`
          if (event === 'handover_update') {
            const { status, handoverId } = payload as { status: string; handoverId: string }
            return `handover_update ${status} ${handoverId}`
          }
          if (event === 'new_activity') {
            const activity = payload as TActivity
            const about =
              activity.type === 'NEW_ITEM'
                ? activity.data.id
                : (activity.data as { handoverId?: string }).handoverId
            return `new_activity ${activity.type} ${about}`
          }
          return event
        }),
      )
    const missing = () => [...expected].filter((key) => !received().has(key))
    await until('every event received', () => missing().length === 0, 10_000).catch(() => undefined)
    expect(missing()).toEqual([])
    // It did reconnect (its instance restarted), and was never told to fetch everything instead.
    expect(socket.connects()).toBeGreaterThanOrEqual(2)
    expect(socket.events.filter((e) => e.event === 'resync')).toEqual([])
    socket.close()

    const log = instances.flatMap((i) => i.output).join('')
    expect(log).not.toContain(JWT_SECRET)
    console.info(
      `rolling restart: ${answered} requests, ${expected.size} events, ${socket.connects()} socket connections, ${Math.round((Date.now() - startedAt) / 1000)} s`,
    )
  }, 110_000)
})
