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
})
