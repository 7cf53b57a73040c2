import { Counter, Histogram, Registry } from 'prom-client'
import { describe, expect, it } from 'vitest'
import { AppError } from './errors'
import { createMetrics, isQueryError } from './metrics'

describe('metrics', () => {
  it('tells a failed query from a bug and from an outage (test/metrics.test.ts: real drivers)', async () => {
    expect(isQueryError(new TypeError('x is undefined'))).toBe(false)
    expect(isQueryError(new AppError('NOT_FOUND', 'Not found'))).toBe(false)

    const metrics = createMetrics()
    metrics.databaseError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))
    metrics.databaseError(Object.assign(new Error('division by zero'), { code: '22012', severity: 'ERROR' }))
    metrics.databaseError(new TypeError('a bug'))
    const text = await metrics.registry.metrics()
    expect(text).toContain('circles_db_errors_total{kind="unavailable"} 1')
    expect(text).toContain('circles_db_errors_total{kind="query"} 1')
  })

  it('labels an unknown method as other, and keeps one registry per app', async () => {
    const a = createMetrics()
    const b = createMetrics()
    a.requestFinished('PROPFIND', 'unmatched', 404, 0.002)
    a.requestFinished('GET', '/api/health', 200, 0.001)
    a.requestFinished('GET', '/api/health', 200, 0.001)
    const text = await a.registry.metrics()
    expect(text).toContain('circles_http_requests_total{method="other",route="unmatched",status="404"} 1')
    expect(text).toContain('circles_http_requests_total{method="GET",route="/api/health",status="200"} 2')
    expect(await b.registry.metrics()).not.toContain('route="/api/health"')
  })

  it('writes the request series exactly as prom-client’s own counter and histogram would', async () => {
    const ours = createMetrics()
    const reference = new Registry()
    const labelNames = ['method', 'route', 'status'] as const
    const counter = new Counter({
      name: 'circles_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status.',
      labelNames,
      registers: [reference],
    })
    const histogram = new Histogram({
      name: 'circles_http_request_duration_seconds',
      help: 'Time from the request to its answer, by method, route pattern and status.',
      labelNames,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [reference],
    })
    const observations: [string, string, number, number][] = [
      ['GET', '/api/health', 200, 0.0004],
      ['GET', '/api/health', 200, 0.001],
      ['GET', '/api/health', 200, 0.0011],
      ['POST', '/api/circles', 201, 0.3],
      ['POST', '/api/circles', 400, 45],
    ]
    for (const [method, route, status, seconds] of observations) {
      ours.requestFinished(method, route, status, seconds)
      counter.inc({ method, route, status: String(status) })
      histogram.observe({ method, route, status: String(status) }, seconds)
    }
    const series = (text: string) =>
      text
        .split('\n')
        .filter((line) => line.includes('circles_http_request'))
        .sort()
    expect(series(await ours.registry.metrics())).toEqual(series(await reference.metrics()))
  })
})
