import type { FastifyBaseLogger } from 'fastify'
import { isDatabaseUnavailable, outageSummary } from './database-unavailable'

export interface QueueWorker {
  /** Ask for a run now, e.g. right after a transaction that queued work committed. */
  nudge(): void
  /** No new run starts; resolves when the current one has ended. */
  stop(): Promise<void>
}

/**
 * The loop both queues share (the email outbox and the push queue): every `intervalMs` and on a nudge,
 * claim jobs one at a time until none is due; a nudge during a run makes it go round once more; stop
 * ends it between jobs. A database outage is one warning per outage (never the failed query, whose
 * values may be a message), and the next tick tries again.
 */
export function startQueueWorker<Job>(opts: {
  /** For the log lines: 'outbox worker', 'push worker'. */
  name: string
  log: FastifyBaseLogger
  intervalMs: number
  claim: () => Promise<Job | null | undefined>
  /** One job; `stopped()` says whether the worker is being stopped meanwhile. */
  handle: (job: Job, stopped: () => boolean) => Promise<void>
}): QueueWorker {
  const { name, log } = opts
  let running: Promise<void> | null = null
  let again = false
  let stopped = false
  let outage = false
  const isStopped = () => stopped

  async function drain() {
    do {
      again = false
      for (let job = await opts.claim(); job; job = await opts.claim()) {
        await opts.handle(job, isStopped)
        if (stopped) return
      }
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
        if (outage) log.info(`${name}: database reachable again`)
        outage = false
      })
      .catch((error) => {
        if (isDatabaseUnavailable(error)) {
          if (!outage) log.warn({ database: outageSummary(error) }, `${name}: database unavailable; retrying`)
          outage = true
        } else log.error({ err: error }, `${name} run failed`)
      })
      .finally(() => {
        running = null
      })
  }

  const timer = setInterval(run, opts.intervalMs)
  timer.unref()
  run()

  return {
    nudge: () => setImmediate(run),
    async stop() {
      stopped = true
      clearInterval(timer)
      await running
    },
  }
}
