import { MESSAGES } from '@circles/shared'
import { io as connect } from 'socket.io-client'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { signedIn } from './support/circles'
import { type Listener, connectAs, listen, tokenOf } from './support/sockets'
import { type TestApp, createTestApp, secondInstance } from './support/test-app'

// One account opened 1,000 sockets: each account may hold SOCKETS_PER_ACCOUNT (50 by default; 5 here).
const LIMIT = 5
const env = { SOCKETS_PER_ACCOUNT: String(LIMIT) }

/** A connection attempt's outcome: connected, or refused with the connect_error's message and data. */
function attempt(url: string, token: string) {
  const socket = connect(url, {
    path: '/socket.io',
    auth: { token },
    transports: ['polling', 'websocket'],
    reconnection: false,
    forceNew: true,
  })
  return new Promise<{ socket: typeof socket; refused?: { message: string; data: unknown } }>((resolve) => {
    socket.once('connected', () => resolve({ socket }))
    socket.once('connect_error', (error) => {
      socket.close()
      resolve({ socket, refused: { message: error.message, data: (error as { data?: unknown }).data } })
    })
  })
}

const refusal = {
  message: MESSAGES.tooManySockets,
  data: { code: 'TOO_MANY_SOCKETS', retry: false, key: 'tooManySockets' },
}

describe('sockets per account', () => {
  let t: TestApp
  let url: string
  const open: Listener[] = []
  beforeAll(async () => {
    t = await createTestApp({ env })
    url = await listen(t)
  })
  afterEach(() => {
    for (const l of open.splice(0)) l.close()
  })
  afterAll(() => t.close())

  it('refuses the connection past the limit with a message and no-retry, and frees a place on close', async () => {
    const ada = await signedIn(t)
    for (let i = 0; i < LIMIT; i++) open.push(await connectAs(url, tokenOf(ada)))
    const over = await attempt(url, tokenOf(ada))
    expect(over.refused).toEqual(refusal)

    // Someone else is not affected.
    const max = await signedIn(t)
    open.push(await connectAs(url, tokenOf(max)))

    // A tab closed: its place is free again once the server saw it go.
    const closing = open.shift()!
    const gone = new Promise((resolve) => closing.socket.io.engine.once('close', resolve))
    closing.close()
    await gone
    let again = await attempt(url, tokenOf(ada))
    for (let i = 0; again.refused && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 20))
      again = await attempt(url, tokenOf(ada))
    }
    expect(again.refused).toBeUndefined()
    again.socket.close()
  })

  it('lets exactly the limit through when many connect at once', async () => {
    const ada = await signedIn(t)
    const results = await Promise.all(Array.from({ length: 30 }, () => attempt(url, tokenOf(ada))))
    const accepted = results.filter((r) => !r.refused)
    expect(accepted).toHaveLength(LIMIT)
    for (const r of results.filter((r) => r.refused)) expect(r.refused).toEqual(refusal)
    for (const r of accepted) r.socket.close()
  })
})

describe.runIf(process.env.DATABASE_URL)('sockets per account across two instances', () => {
  let first: TestApp
  let second: TestApp
  let urls: string[]
  beforeAll(async () => {
    first = await createTestApp({ env })
    second = await secondInstance(first, 2, env)
    urls = [await listen(first), await listen(second)]
    // Each instance counts the others it has heard a heartbeat from: one started while the other was
    // not yet listening hears of it at the next heartbeat. Counting across them begins once both know.
    await vi.waitFor(
      async () => {
        for (const { app } of [first, second]) expect(await app.io.of('/').adapter.serverCount()).toBe(2)
      },
      { timeout: 15_000, interval: 50 },
    )
  })
  afterAll(async () => {
    await second.close()
    await first.close()
  })

  it('counts the sockets of one account on both instances together', async () => {
    const ada = await signedIn(first)
    const open: Listener[] = []
    for (let i = 0; i < LIMIT; i++) open.push(await connectAs(urls[i % 2]!, tokenOf(ada)))
    expect((await attempt(urls[0]!, tokenOf(ada))).refused).toEqual(refusal)
    expect((await attempt(urls[1]!, tokenOf(ada))).refused).toEqual(refusal)
    for (const l of open) l.close()
  })
})
