import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '../../db/client'
import { isDatabaseUnavailable, outageSummary } from '../database-unavailable'
import { claimDueEmails, markDelivered, markFailedAttempt } from './outbox'
import type { MailTransport } from './transport'

export interface OutboxWorker {
  /** Ask for a run now, e.g. right after a transaction that queued an email committed. */
  nudge(): void
  stop(): Promise<void>
}

const MAX_ATTEMPTS = 12
const MAX_BACKOFF_MS = 60 * 60_000

export function backoffMs(attempts: number, baseMs: number) {
  return Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempts - 1))
}

export function startOutboxWorker(opts: {
  db: Db
  transport: MailTransport
  log: FastifyBaseLogger
  intervalMs: number
}): OutboxWorker {
  const { db, transport, log, intervalMs } = opts
  let running: Promise<void> | null = null
  let again = false
  let stopped = false
  let outage = false

  async function drain() {
    do {
      again = false
      const rows = await claimDueEmails(db)
      for (const row of rows) {
        try {
          await transport.send(row)
          await markDelivered(db, row.id, transport.kind)
        } catch (error) {
          const attempts = row.attempts + 1
          const retryIn = attempts >= MAX_ATTEMPTS ? null : backoffMs(attempts, intervalMs)
          await markFailedAttempt(db, row.id, attempts, retryIn, (error as Error).message)
          log.warn({ emailId: row.id, attempts, retryInMs: retryIn, err: error }, 'email delivery failed')
        }
      }
      if (rows.length === 10) again = true
    } while (again && !stopped)
  }

  function run() {
    if (stopped) return
    if (running) {
      again = true
      return
    }
    running = drain()
      .then(() => {
        if (outage) log.info('outbox worker: database reachable again')
        outage = false
      })
      .catch((error) => {
        // The database is away (a restart): the next tick tries again. One line per outage, and
        // never the failed query, whose values may be an email's body.
        if (isDatabaseUnavailable(error)) {
          if (!outage)
            log.warn({ database: outageSummary(error) }, 'outbox worker: database unavailable; retrying')
          outage = true
        } else log.error({ err: error }, 'outbox worker run failed')
      })
      .finally(() => {
        running = null
      })
  }

  const timer = setInterval(run, intervalMs)
  timer.unref()
  run()

  return {
    nudge: () => setImmediate(run),
    async stop() {
      stopped = true
      clearInterval(timer)
      await running
      transport.close()
    },
  }
}
