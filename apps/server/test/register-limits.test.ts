import { MESSAGES } from '@circles/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RATE_RULES } from '../src/lib/rate-limits'
import { uniqueEmail } from './support/factories'
import { listen } from './support/sockets'
import { type TestApp, createTestApp } from './support/test-app'

// 100 registrations from one address in a minute each sent a verification email to someone else's
// address. Now a burst per minute and a ceiling per hour per address (the hour: src/lib/rate-limits.test.ts).

let t: TestApp
let url: string
beforeAll(async () => {
  t = await createTestApp()
  url = await listen(t)
})
afterAll(() => t.close())

/** Registers from this machine's real address, as 30 people behind one router would. */
async function register(email: string) {
  const res = await fetch(`${url}/api/users/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Maker', email, password: 'a good password' }),
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers }
}

describe('registrations per address', () => {
  it('lets 30 people behind one router register at once; a script past that waits, and sends nothing', async () => {
    const burst = RATE_RULES.registerPerAddressBurst.points
    expect(burst).toBeGreaterThanOrEqual(30)
    const emails = Array.from({ length: burst }, () => uniqueEmail('maker'))
    for (const email of emails) expect((await register(email)).status).toBe(201)
    for (const email of emails) expect(await t.emailsTo(email)).toHaveLength(1)

    const victim = uniqueEmail('victim')
    const refused = await register(victim)
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual({
      message: MESSAGES.tooManyRequests,
      code: 'RATE_LIMITED',
      retryAfter: expect.any(Number),
      key: 'tooManyRequests',
    })
    expect(refused.body.retryAfter).toBeLessThanOrEqual(60)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await t.emailsTo(victim)).toHaveLength(0)

    // Someone at another address is not affected.
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/api/users/register',
      payload: { name: 'Elsewhere', email: uniqueEmail('else'), password: 'a good password' },
      remoteAddress: '10.66.0.1',
    })
    expect(elsewhere.statusCode).toBe(201)
  })
})
