import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '../../db/client'
import { type Metrics, noMetrics } from '../metrics'
import { startQueueWorker } from '../queue-worker'
import { type OutboxRow, claimNextEmail, markDelivered, markNotSent, markUnknown } from './outbox'
import { type MailTransport, certainlyNotSent } from './transport'

export interface OutboxWorker {
  /** Ask for a run now, e.g. right after a transaction that queued an email committed. */
  nudge(): void
  stop(): Promise<void>
}

const MAX_ATTEMPTS = 12
const MAX_BACKOFF_MS = 60 * 60_000
/** Waits between tries to record an outcome the database refused: the email itself is never resent. */
const RECORD_RETRIES_MS = [100, 1000, 5000]

export function backoffMs(attempts: number, baseMs: number) {
  return Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempts - 1))
}

/**
 * How long a claimed email stays `sending` before another instance may declare its outcome unknown:
 * well beyond the longest SMTP conversation the transport allows (three waits of `smtpTimeoutMs`),
 * so a live instance is never overtaken, and at least two minutes.
 */
export function leaseMs(smtpTimeoutMs: number) {
  return Math.max(120_000, 6 * smtpTimeoutMs)
}

/**
 * Sends the outbox one email at a time, each at most once: claimed as `sending` with a fenced lease
 * before the SMTP conversation, recorded after it. An email whose outcome is unknown (the
 * conversation broke late, or recording it failed for good) is never sent again (docs/decisions/0022).
 */
export function startOutboxWorker(opts: {
  db: Db
  transport: MailTransport
  log: FastifyBaseLogger
  intervalMs: number
  smtpTimeoutMs: number
  /** Counts delivery failures (lib/metrics.ts). */
  metrics?: Pick<Metrics, 'outboxFailure'>
}): OutboxWorker {
  const { db, transport, log, intervalMs } = opts
  const metrics = opts.metrics ?? noMetrics
  const lease = leaseMs(opts.smtpTimeoutMs)
  /** Records an outcome, retrying a failing database; the row is left `sending` if it never works. */
  async function record(row: OutboxRow, what: string, write: () => Promise<void>, stopped: () => boolean) {
    for (let attempt = 0; ; attempt++) {
      try {
        await write()
        return
      } catch (error) {
        const wait = RECORD_RETRIES_MS[attempt]
        if (wait === undefined || stopped()) {
          log.error(
            { emailId: row.id, err: error },
            `could not record that an email was ${what}; it will not be sent again`,
          )
          return
        }
        await new Promise((resolve) => setTimeout(resolve, wait))
      }
    }
  }

  async function deliver(row: OutboxRow, stopped: () => boolean) {
    try {
      await transport.send(row)
    } catch (error) {
      const message = (error as Error).message
      if (!certainlyNotSent(error)) {
        metrics.outboxFailure('unknown')
        await record(row, 'possibly sent', () => markUnknown(db, row, message), stopped)
        log.warn({ emailId: row.id, err: error }, 'email delivery outcome unknown; not sent again')
        return
      }
      const retryIn = row.attempts >= MAX_ATTEMPTS ? null : backoffMs(row.attempts, intervalMs)
      metrics.outboxFailure(retryIn === null ? 'gave_up' : 'retry')
      await record(row, 'not sent', () => markNotSent(db, row, retryIn, message), stopped)
      log.warn(
        { emailId: row.id, attempts: row.attempts, retryInMs: retryIn, err: error },
        'email delivery failed',
      )
      return
    }
    await record(row, transport.kind, () => markDelivered(db, row, transport.kind), stopped)
  }

  const worker = startQueueWorker({
    name: 'outbox worker',
    log,
    intervalMs,
    claim: () => claimNextEmail(db, lease),
    handle: deliver,
  })

  return {
    nudge: worker.nudge,
    async stop() {
      await worker.stop()
      transport.close()
    },
  }
}
