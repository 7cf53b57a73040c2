import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import { isDatabaseUnavailable } from './database-unavailable'

/**
 * The app's Prometheus metrics (docs/decisions/0042, docs/operations.md "Metrics and request ids").
 * One registry per app: tests build many apps in one process, and nothing is registered globally.
 * With metrics off (no METRICS_PORT, no METRICS_TOKEN) every recorder is a no-op (`noMetrics`) and
 * no hook is added, so the hot path pays nothing.
 *
 * The recorders take only bounded label values: route patterns (never a URL), methods, statuses,
 * limiter names, fixed outcomes.
 */
export interface Metrics {
  /** The registry to serve; absent when metrics are off. */
  registry?: Registry
  /** A request answered, by method, route pattern and status. */
  requestFinished(method: string, route: string, status: number, seconds: number): void
  /** An error the error handler saw that came from the database: unreachable, or a query that failed. */
  databaseError(error: unknown): void
  /** An outbox email not delivered: `retry` (will be tried again), `gave_up`, `unknown` (may have gone out). */
  outboxFailure(outcome: OutboxFailure): void
  /** A ledger block written, and how long its append took (hash, frontier, signature, insert). */
  ledgerAppended(seconds: number): void
  /** A rate limiter refused a call. */
  rateLimited(limiter: string): void
}

export type OutboxFailure = 'retry' | 'gave_up' | 'unknown'

export const noMetrics: Metrics = {
  requestFinished() {},
  databaseError() {},
  outboxFailure() {},
  ledgerAppended() {},
  rateLimited() {},
}

/** HTTP methods as labels; anything else (Node accepts a few dozen) is `other`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/** Seconds: from a cached read (under a millisecond) to a slow upload. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
const LEDGER_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1]

/**
 * Whether an error came from a query the database refused or could not run (a driver's error with a
 * SQLSTATE, PGlite's and node-postgres's alike, or drizzle's wrapper of one), as opposed to a bug in
 * our code.
 */
export function isQueryError(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 5) return false
  const { code, severity, name } = error as { code?: unknown; severity?: unknown; name?: unknown }
  if (typeof severity === 'string' && typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return true
  if (name === 'DrizzleQueryError') return true
  return isQueryError((error as { cause?: unknown }).cause, depth + 1)
}

type RequestLabels = { method: string; route: string; status: string }
interface Series {
  labels: RequestLabels
  count: number
  sum: number
  /** Observations per bucket of REQUEST_BUCKETS (not cumulative); beyond the last only in `count`. */
  buckets: number[]
}

/**
 * `circles_http_requests_total` and `circles_http_request_duration_seconds`, kept as plain records by
 * one string key and turned into samples only when scraped. prom-client's labelled children check and
 * hash their labels on every call (microseconds per request for the two); this costs a map look-up
 * and a few additions. lib/metrics.test.ts checks the text is the same as theirs. The samples are those of a prom-client counter and histogram.
 */
function requestSeries(registry: Registry) {
  const series = new Map<string, Series>()
  const counter = {
    name: 'circles_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    type: 'counter',
    aggregator: 'sum',
    get: async () => ({
      ...counter,
      values: [...series.values()].map((s) => ({ labels: s.labels, value: s.count })),
    }),
    reset: () => series.clear(),
  }
  const histogram = {
    name: 'circles_http_request_duration_seconds',
    help: 'Time from the request to its answer, by method, route pattern and status.',
    type: 'histogram',
    aggregator: 'sum',
    // As prom-client's histogram writes them: `le` first, then the series' labels (`sharedLabels`).
    get: async () => ({
      ...histogram,
      values: [...series.values()].flatMap((s) => {
        let cumulative = 0
        return [
          ...REQUEST_BUCKETS.map((le, i) => ({
            metricName: `${histogram.name}_bucket`,
            labels: { le },
            sharedLabels: s.labels,
            value: (cumulative += s.buckets[i]!),
          })),
          {
            metricName: `${histogram.name}_bucket`,
            labels: { le: '+Inf' },
            sharedLabels: s.labels,
            value: s.count,
          },
          { metricName: `${histogram.name}_sum`, labels: {}, sharedLabels: s.labels, value: s.sum },
          { metricName: `${histogram.name}_count`, labels: {}, sharedLabels: s.labels, value: s.count },
        ]
      }),
    }),
    reset: () => series.clear(),
  }
  // prom-client's registry asks a metric only for these members (its own classes are the typed ones).
  registry.registerMetric(counter as unknown as Counter)
  registry.registerMetric(histogram as unknown as Histogram)
  return {
    record(method: string, route: string, status: number, seconds: number) {
      const key = `${method} ${status} ${route}`
      let s = series.get(key)
      if (!s) {
        const labels = { method: METHODS.has(method) ? method : 'other', route, status: String(status) }
        s = { labels, count: 0, sum: 0, buckets: REQUEST_BUCKETS.map(() => 0) }
        series.set(key, s)
      }
      s.count++
      s.sum += seconds
      // The first bucket whose bound is not below the value (Prometheus' `le`).
      let i = 0
      while (i < REQUEST_BUCKETS.length && seconds > REQUEST_BUCKETS[i]!) i++
      if (i < REQUEST_BUCKETS.length) s.buckets[i]!++
    },
  }
}

/** The metrics that are recorded as things happen; the gauges read at scrape time are in plugins/metrics.ts. */
export function createMetrics(): Metrics & { registry: Registry } {
  const registry = new Registry()
  // RSS, heap, event-loop lag, GC, handles, CPU: prom-client's standard names, without a prefix.
  collectDefaultMetrics({ register: registry })

  const requests = requestSeries(registry)
  const databaseErrors = new Counter({
    name: 'circles_db_errors_total',
    help: 'Requests that failed on the database: kind="unavailable" (answered 503) or "query" (a query failed, 500).',
    labelNames: ['kind'] as const,
    registers: [registry],
  })
  const outboxFailures = new Counter({
    name: 'circles_outbox_delivery_failures_total',
    help: 'Emails not delivered by an attempt: outcome="retry", "gave_up" or "unknown" (may have been sent).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  })
  const ledgerAppends = new Counter({
    name: 'circles_ledger_appends_total',
    help: 'Ledger blocks appended (written in their transaction).',
    registers: [registry],
  })
  const ledgerAppendDuration = new Histogram({
    name: 'circles_ledger_append_duration_seconds',
    help: 'Time to append one block: content, hash, frontier, signed checkpoint and insert.',
    buckets: LEDGER_BUCKETS,
    registers: [registry],
  })
  const refusals = new Counter({
    name: 'circles_rate_limit_refusals_total',
    help: 'Calls a rate limiter refused (429), by limiter.',
    labelNames: ['limiter'] as const,
    registers: [registry],
  })
  for (const kind of ['unavailable', 'query']) databaseErrors.inc({ kind }, 0)
  for (const outcome of ['retry', 'gave_up', 'unknown']) outboxFailures.inc({ outcome }, 0)

  return {
    registry,
    requestFinished(method, route, status, seconds) {
      requests.record(method, route, status, seconds)
    },
    databaseError(error) {
      if (isDatabaseUnavailable(error)) databaseErrors.inc({ kind: 'unavailable' })
      else if (isQueryError(error)) databaseErrors.inc({ kind: 'query' })
    },
    outboxFailure(outcome) {
      outboxFailures.inc({ outcome })
    },
    ledgerAppended(seconds) {
      ledgerAppends.inc()
      ledgerAppendDuration.observe(seconds)
    },
    rateLimited(limiter) {
      refusals.inc({ limiter })
    },
  }
}
