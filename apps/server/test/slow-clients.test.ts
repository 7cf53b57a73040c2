import { MESSAGES } from '@circles/shared'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCircle, signedIn } from './support/circles'
import { createItem } from './support/handovers'
import { multipart } from './support/images'
import { openRaw, pieces } from './support/raw-http'
import { listen } from './support/sockets'
import { createTestApp, type TestApp } from './support/test-app'

// Slow clients hold connections (docs/decisions/0026). Short deadlines here, set through the
// environment like an operator would; the defaults are longer and measured in bench/slow-upload.mjs.
const HEADERS_MS = 1000
const BODY_MS = 1000

let t: TestApp
let url: string
beforeAll(async () => {
  t = await createTestApp({
    env: {
      HEADERS_TIMEOUT_MS: String(HEADERS_MS),
      BODY_TIMEOUT_MS: String(BODY_MS),
      BODY_MIN_BYTES_PER_SECOND: '500',
      REQUEST_TIMEOUT_MS: '20000',
      KEEP_ALIVE_TIMEOUT_MS: '1000',
      IDLE_TIMEOUT_MS: '20000',
    },
  })
  url = await listen(t)
})
afterAll(() => t.close())

const timedOut = (answer: string) => {
  expect(answer).toMatch(/^HTTP\/1\.1 408 /)
  expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
    message: MESSAGES.requestTimeout,
    code: 'REQUEST_TIMEOUT',
    key: 'requestTimeout',
  })
}

describe('slow clients', () => {
  it('closes five connections that send a header line now and then, with 408 and a message', async () => {
    const clients = await Promise.all(Array.from({ length: 5 }, () => openRaw(url)))
    for (const client of clients) {
      const lines = ['GET /api/health HTTP/1.1\r\nHost: localhost\r\n']
      for (let i = 0; i < 100; i++) lines.push(`X-Slow-${i}: ${i}\r\n`)
      void client.trickle(lines, 200)
    }
    for (const client of clients) {
      const { answer, afterMs } = await client.closed
      timedOut(answer)
      expect(afterMs).toBeGreaterThanOrEqual(HEADERS_MS - 50)
    }
  })

  it('closes a connection that never sends a request', async () => {
    const client = await openRaw(url)
    const { afterMs } = await client.closed
    expect(afterMs).toBeGreaterThanOrEqual(HEADERS_MS - 50)
  })

  it('closes an idle keep-alive connection after its timeout', async () => {
    const client = await openRaw(url)
    client.socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n')
    const { answer } = await client.closed
    expect(answer).toMatch(/^HTTP\/1\.1 200 /)
  })

  it('cuts a body sent a byte at a time, with 408 and a message', async () => {
    const client = await openRaw(url)
    const body = JSON.stringify({ email: 'slow@circles.test', password: 'x'.repeat(100) })
    client.socket.write(
      `POST /api/users/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    )
    void client.trickle([...body], 200)
    const { answer, afterMs } = await client.closed
    timedOut(answer)
    expect(afterMs).toBeGreaterThanOrEqual(BODY_MS - 50)
    // The request's own id, as its log lines carry it (docs/decisions/0042; test/metrics.test.ts).
    expect(answer).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}\r\n/i)
  })

  it('takes an upload that arrives slowly but steadily, well past the body and header deadlines', async () => {
    const admin = await signedIn(t)
    const circle = await createCircle(t, admin)
    const item = await createItem(t, admin, circle.id)
    const bytes = await sharp({
      create: {
        width: 1000,
        height: 800,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .jpeg({ quality: 95 })
      .toBuffer()
    const form = multipart('image', { name: 'photo.jpg', type: 'image/jpeg', bytes })
    const head =
      `POST /api/items/${item.id}/image HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n` +
      `Authorization: ${admin.auth.authorization}\r\nContent-Type: ${form.headers['content-type']}\r\n` +
      `Content-Length: ${form.payload.length}\r\n\r\n`
    const client = await openRaw(url)
    // The headers themselves a line at a time, then about 300 KB/s: more than two seconds in all.
    const chunks = [...head.split(/(?<=\r\n)/), ...pieces(form.payload, 16 * 1024)]
    await client.trickle(chunks, 50)
    const { answer, afterMs } = await client.closed
    expect(answer).toMatch(/^HTTP\/1\.1 200 /)
    expect(answer).toContain('"imageUrl":"/api/items/image/')
    expect(afterMs).toBeGreaterThan(2 * Math.max(HEADERS_MS, BODY_MS))
  })
})
