import type { FastifyInstance } from 'fastify'

/**
 * Graceful shutdown (docs/decisions/0043, docs/operations.md "Rolling restarts").
 *
 * On SIGTERM/SIGINT:
 * 1. draining: `/api/ready` answers 503 at once, so a load balancer takes this instance out of its
 *    rotation; everything else is still served, each answer with `Connection: close` so keep-alive
 *    clients open their next connection elsewhere. This lasts `SHUTDOWN_DRAIN_MS` (0 by default), and
 *    then until no request came for `QUIET_MS` (bounded by `SHUTDOWN_TIMEOUT_MS`).
 * 2. `app.close()`: the sockets are told to reconnect elsewhere and disconnected (plugins/socket.ts),
 *    the listening socket closes (new connections are refused), idle keep-alive connections close, and
 *    requests in flight finish; a request that still arrives on a busy keep-alive connection is served
 *    too (`return503OnClosing: false`, app.ts), with `Connection: close`. Then the outbox worker stops.
 * 3. The database closes last, and the process exits 0.
 * Steps 2 and 3 are bounded by `SHUTDOWN_TIMEOUT_MS`: then the remaining connections are cut and the
 * process exits 1.
 */
export interface Drain {
  /** True from the signal on: readiness is 503 and answers close their connection. */
  readonly draining: boolean
  /** When the last HTTP request arrived (`Date.now()`); 0 before the first. */
  readonly lastRequestAt: number
  start(): void
}

/**
 * After `SHUTDOWN_DRAIN_MS`, draining goes on until no request arrived for this long: a load balancer
 * that noticed late (its checks queued behind a busy event loop) is still sending, and closing then
 * would cut connections whose request is not read yet.
 */
export const QUIET_MS = 500

/** Adds `Connection: close` to every answer once draining or closing. */
export function registerDrain(app: FastifyInstance): Drain {
  let draining = false
  let lastRequestAt = 0
  app.addHook('preClose', async () => {
    draining = true
  })
  // A load balancer's health checks go on to the end; they are not traffic.
  app.addHook('onRequest', async (request) => {
    if (request.url !== '/api/ready' && request.url !== '/api/health') lastRequestAt = Date.now()
  })
  app.addHook('onSend', async (_request, reply) => {
    if (draining) reply.header('connection', 'close')
  })
  return {
    get draining() {
      return draining
    },
    get lastRequestAt() {
      return lastRequestAt
    },
    start() {
      draining = true
    },
  }
}

export interface ShutdownOptions {
  app: FastifyInstance
  drain: Drain
  database: { close(): Promise<void> }
  drainMs: number
  timeoutMs: number
  exit(code: number): void
}

/** Returns the signal handler; a second signal while shutting down changes nothing. */
export function gracefulShutdown(opts: ShutdownOptions): (signal: string) => Promise<void> {
  const { app, drain, database, drainMs, timeoutMs, exit } = opts
  let started = false
  return async (signal) => {
    if (started) return
    started = true
    drain.start()
    app.log.info({ signal, drainMs, timeoutMs }, 'shutting down: not ready, draining')
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
    if (drainMs > 0) {
      await sleep(drainMs)
      const deadline = Date.now() + timeoutMs
      while (Date.now() - drain.lastRequestAt < QUIET_MS && Date.now() < deadline) await sleep(50)
    }
    const timer = setTimeout(() => {
      app.log.error({ timeoutMs }, 'shutdown took too long; cutting the remaining connections and exiting')
      app.server.closeAllConnections()
      exit(1)
    }, timeoutMs)
    timer.unref()
    app.log.info('shutting down: no new connections, finishing requests in flight')
    try {
      await app.close()
      await database.close()
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed')
      exit(1)
      return
    }
    clearTimeout(timer)
    app.log.info('shut down')
    exit(0)
  }
}
