import { createHash, timingSafeEqual } from 'node:crypto'
import { type Server, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { MESSAGES } from '@circles/shared'
import { inArray, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { Gauge, type Registry } from 'prom-client'
import type { Config } from '../config'
import type { Database } from '../db/client'
import { outbox } from '../db/schema'
import { errorBody } from '../lib/errors'
import type { Metrics } from '../lib/metrics'

declare module 'fastify' {
  interface FastifyInstance {
    /** Where the metrics listener (METRICS_PORT) listens once the app is ready; null when it is off. */
    metricsAddress(): AddressInfo | null
  }
}

/** Outbox statuses that are still to do: the backlog. Delivered and given-up rows are not counted. */
const BACKLOG = ['pending', 'sending'] as const
/** A scrape never waits longer than this for the outbox count (the database may be away). */
const SCRAPE_QUERY_TIMEOUT_MS = 1000

/** METRICS_TOKEN as a bearer token, compared in constant time. */
function bearerCheck(token: string | undefined) {
  if (!token) return () => true
  const expected = createHash('sha256').update(token).digest()
  return (authorization: string | undefined) => {
    const given = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1]
    if (!given) return false
    return timingSafeEqual(createHash('sha256').update(given).digest(), expected)
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** The gauges read when Prometheus scrapes: database pool, outbox backlog, connected sockets. */
function registerGauges(app: FastifyInstance, registry: Registry, database: Database) {
  new Gauge({
    name: 'circles_db_info',
    help: 'The database in use: kind="postgres" or "pglite" (embedded, in this process, no pool).',
    labelNames: ['kind'] as const,
    registers: [registry],
    collect() {
      this.set({ kind: database.kind }, 1)
    },
  })
  const pool = database.pool
  if (pool) {
    new Gauge({
      name: 'circles_db_pool_connections',
      help: 'PostgreSQL connections of this instance: state="active" (checked out) or "idle".',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        this.set({ state: 'active' }, pool.totalCount - pool.idleCount)
        this.set({ state: 'idle' }, pool.idleCount)
      },
    })
    new Gauge({
      name: 'circles_db_pool_waiting',
      help: 'Queries of this instance waiting for a free PostgreSQL connection.',
      registers: [registry],
      collect() {
        this.set(pool.waitingCount)
      },
    })
    new Gauge({
      name: 'circles_db_pool_max',
      help: 'The most PostgreSQL connections this instance opens.',
      registers: [registry],
      collect() {
        this.set(pool.options.max ?? 10)
      },
    })
  }

  new Gauge({
    name: 'circles_outbox_backlog',
    help: 'Emails still to send, by status ("pending", "sending"); shared by all instances.',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      // Served by the (status, next_attempt_at) index; the sent rows are never read.
      try {
        const rows = await withTimeout(
          database.db
            .select({ status: outbox.status, count: sql<number>`count(*)::int` })
            .from(outbox)
            .where(inArray(outbox.status, [...BACKLOG]))
            .groupBy(outbox.status),
          SCRAPE_QUERY_TIMEOUT_MS,
        )
        for (const status of BACKLOG) {
          this.set({ status }, rows.find((row) => row.status === status)?.count ?? 0)
        }
      } catch {
        // The database is away: no figure rather than a wrong one, and the rest of the scrape still works.
        this.reset()
      }
    },
  })
  new Gauge({
    name: 'circles_sockets_connected',
    help: 'Real-time (socket.io) connections open on this instance.',
    registers: [registry],
    collect() {
      this.set(app.hasDecorator('io') ? app.io.of('/').sockets.size : 0)
    },
  })
}

/**
 * Serves the metrics (docs/decisions/0042): on a listener of its own at METRICS_HOST:METRICS_PORT
 * (127.0.0.1 unless set), and on the main port at GET /metrics only when METRICS_TOKEN is set, then
 * behind that bearer token on both. Records each request's route pattern, method, status and time.
 */
export function registerMetrics(
  app: FastifyInstance,
  { config, database, metrics }: { config: Config; database: Database; metrics: Metrics },
) {
  let address: AddressInfo | null = null
  app.decorate('metricsAddress', () => address)
  const registry = metrics.registry
  if (!registry) return

  app.addHook('onResponse', (request, reply, done) => {
    metrics.requestFinished(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    )
    done()
  })
  registerGauges(app, registry, database)

  const { token, port, host } = config.metrics
  const authorized = bearerCheck(token)

  if (token) {
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (!authorized(request.headers.authorization)) {
        return reply.status(401).send(errorBody('UNAUTHORIZED', MESSAGES.unauthorized))
      }
      return reply
        .header('content-type', registry.contentType)
        .header('cache-control', 'no-store')
        .send(await registry.metrics())
    })
  }

  if (port === undefined) return
  let server: Server | undefined
  app.addHook('onReady', async () => {
    const listener = createServer((request, response) => {
      const path = (request.url ?? '').split('?')[0]
      if (request.method !== 'GET' || path !== '/metrics') {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n')
        return
      }
      if (!authorized(request.headers.authorization)) {
        response.writeHead(401, { 'content-type': 'text/plain' }).end('Unauthorized\n')
        return
      }
      registry.metrics().then(
        (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
        (error: unknown) => {
          app.log.error({ err: error }, 'metrics scrape failed')
          response.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics failed\n')
        },
      )
    })
    server = listener
    await new Promise<void>((resolve, reject) => {
      listener.once('error', reject)
      listener.listen(port, host, () => {
        listener.off('error', reject)
        resolve()
      })
    })
    address = listener.address() as AddressInfo
    app.log.info({ host: address.address, port: address.port }, 'metrics listening')
  })
  app.addHook('onClose', async () => {
    if (!server) return
    const listener = server
    address = null
    listener.closeAllConnections()
    await new Promise<void>((resolve) => listener.close(() => resolve()))
  })
}
