import { randomUUID } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { MESSAGES } from '@circles/shared'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSessionTokens } from '../src/modules/auth/session-token'
import { refusal } from './support/sockets'
import { TEST_JWT_SECRET } from './support/test-app'
import { appWithUnreachableDatabase } from './support/unreachable-database'

/**
 * The app on a PostgreSQL that is not there (a port nobody listens on), as during a restart: every
 * call that needs the database answers 503 with the message, readiness 503, liveness 200 (issue 22).
 * The restart itself, with real processes, is test/outage/postgres-restart.test.ts.
 */
describe('while the database is unreachable', () => {
  let app: FastifyInstance
  let close: () => Promise<void>
  const token = createSessionTokens(TEST_JWT_SECRET).issue({ userId: randomUUID(), sv: 0 })
  const unavailable = {
    message: MESSAGES.serviceUnavailable,
    code: 'SERVICE_UNAVAILABLE',
    key: 'serviceUnavailable',
  }

  beforeAll(async () => {
    ;({ app, close } = await appWithUnreachableDatabase())
  })
  afterAll(() => close())

  it('answers 503 with the message to signed-in and anonymous calls, reads and writes', async () => {
    const calls = [
      { method: 'GET' as const, url: '/api/circles', headers: { authorization: `Bearer ${token}` } },
      {
        method: 'PUT' as const,
        url: '/api/users/me',
        headers: { authorization: `Bearer ${token}` },
        payload: { name: 'Ada' },
      },
      {
        method: 'POST' as const,
        url: '/api/users/login',
        payload: { email: 'ada@example.com', password: 'x'.repeat(12) },
      },
    ]
    for (const call of calls) {
      const res = await app.inject(call)
      expect(res.statusCode, call.url).toBe(503)
      expect(res.headers['retry-after']).toBe('5')
      expect(res.json()).toEqual(unavailable)
    }
  })

  it('is not ready, but alive', async () => {
    const ready = await app.inject('/api/ready')
    expect(ready.statusCode).toBe(503)
    expect(ready.json()).toEqual({ status: 'not_ready', database: false, realtime: false })
    expect((await app.inject('/api/health')).statusCode).toBe(200)
  })

  it('refuses a socket as unavailable, not as unauthorized: the client retries instead of checking its token', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' })
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    expect(await refusal(url, token)).toEqual({
      message: 'Service unavailable',
      data: { code: 'SERVICE_UNAVAILABLE', key: 'realtimeServiceUnavailable' },
    })
  })
})
