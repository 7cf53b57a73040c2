import { connect as tcpConnect } from 'node:net'
import type { TActivity } from '@circles/shared'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gracefulShutdown } from '../src/lib/shutdown'
import { REPLAY_MAX_EVENTS } from '../src/lib/socket-replay'
import { type SignedIn, addMember, createCircle, signedIn } from './support/circles'
import { createItem, pendingHandover } from './support/handovers'
import { type Listener, connectAs, listen, tokenOf } from './support/sockets'
import { type TestApp, createTestApp } from './support/test-app'

/**
 * Issue 25: events published while a client was away (its instance restarting, its network down) reach
 * it when it reconnects with the last event id it saw; and SIGTERM drains before it closes
 * (docs/decisions/0043, lib/shutdown.ts).
 */

let t: TestApp
let url: string
const open: Listener[] = []

beforeAll(async () => {
  t = await createTestApp()
  url = await listen(t)
})
afterAll(async () => {
  for (const l of open) l.close()
  await t.close()
})

async function connect(who: SignedIn, lastEventId?: number, firstEventId?: number, since?: string) {
  const listener = await connectAs(url, tokenOf(who), { lastEventId, firstEventId, since })
  open.push(listener)
  return listener
}

/** The id the client goes on from: the `connected` event's, or the newest event's it received. */
function cursorOf(listener: Listener): number {
  const ids = listener.received.map((r) =>
    r.event === 'connected' ? ((r.payload as { lastEventId?: number }).lastEventId ?? 0) : (r.id ?? 0),
  )
  return Math.max(0, ...ids)
}

/** What a client would act on: room events, less the ids it has seen on its earlier connections. */
const roomEvents = (listener: Listener, ...earlier: Listener[]) => {
  const seen = new Set(earlier.flatMap((l) => l.received.map((r) => r.id)))
  return listener.received.filter((r) => !['connected', 'error'].includes(r.event) && !seen.has(r.id))
}
const firstOf = (listener: Listener) =>
  (listener.received.find((r) => r.event === 'connected')?.payload as { lastEventId: number }).lastEventId

describe('a client that reconnects', () => {
  it('gets what it missed, in order, with ids, only in the rooms it is allowed in now', async () => {
    const ada = await signedIn(t)
    const ben = await signedIn(t)
    const workshop = await createCircle(t, ada, { name: 'Workshop' })
    const attic = await createCircle(t, ada, { name: 'Attic' })
    await addMember(t, ada, workshop.id, ben)
    await addMember(t, ada, attic.id, ben)

    const first = await connect(ben)
    await first.next('connected')
    // Live events carry their id.
    await createItem(t, ada, workshop.id, 'Saw')
    const live = await first.next<{ itemId: string }>('item_update')
    expect(first.received.find((r) => r.payload === live)?.id).toEqual(expect.any(Number))
    await first.next<TActivity>('new_activity', (a) => a.type === 'NEW_ITEM')
    const cursor = cursorOf(first)
    first.close()

    // While Ben is away: an item in each circle, a request to him, and he is removed from the attic.
    const ladder = await createItem(t, ada, workshop.id, 'Ladder')
    const handover = await pendingHandover(t, ada, ben, ladder.id)
    await createItem(t, ada, attic.id, 'Old lamp')
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/circles/${attic.id}/users/${ben.user.id}`,
      headers: ada.auth,
    })
    expect(removed.statusCode).toBe(200)

    const again = await connect(ben, cursor, firstOf(first))
    const missed = roomEvents(again, first)
    const activityType = (r: (typeof missed)[number]) =>
      r.event === 'new_activity' ? `new_activity ${(r.payload as TActivity).type}` : r.event
    // In id order; the events of one request are written side by side, so their ids may come in any order.
    expect(missed.map(activityType).sort()).toEqual(
      [
        'item_update',
        'new_activity NEW_ITEM',
        'handover_update',
        'item_update',
        'new_activity PENDING_HANDOVER',
        // Sent to his own room while he was still a member of the attic.
        'new_activity NEW_ITEM',
        'circle_left',
        'new_activity REMOVED_FROM_CIRCLE',
      ].sort(),
    )
    const ids = missed.map((r) => r.id!)
    expect([...ids].sort((a, b) => a - b)).toEqual(ids)
    expect(ids.every((id) => id > cursor)).toBe(true)
    const of = (key: string) => missed.filter((r) => activityType(r) === key).map((r) => r.payload)
    expect(of('item_update')).toEqual([
      { itemId: ladder.id, circleId: workshop.id },
      { itemId: ladder.id, circleId: workshop.id },
    ])
    // The activity is the feed's, in full, as it was sent live.
    expect(of('new_activity NEW_ITEM')).toEqual([
      expect.objectContaining({ title: expect.stringContaining('Ladder') }),
      expect.objectContaining({ title: expect.stringContaining('Old lamp') }),
    ])
    expect(of('handover_update')).toEqual([
      { handoverId: handover.id, itemId: ladder.id, circleId: workshop.id, status: 'PENDING' },
    ])
    expect(of('new_activity PENDING_HANDOVER')).toEqual([
      expect.objectContaining({ handoverStatus: 'PENDING' }),
    ])
    expect(of('circle_left')).toEqual([{ circleId: attic.id }])
    // The removal comes after everything before it.
    expect(missed.slice(-2).map(activityType).sort()).toEqual([
      'circle_left',
      'new_activity REMOVED_FROM_CIRCLE',
    ])
    // Nothing from the attic's room, which Ben is no longer in; `connected` comes after the replay.
    expect(
      missed.filter((r) => r.event === 'item_update' && JSON.stringify(r.payload).includes(attic.id)),
    ).toEqual([])
    expect(again.received.at(-1)).toMatchObject({ event: 'connected' })
    expect(cursorOf(again)).toBeGreaterThanOrEqual(Math.max(...ids))

    // Reconnecting from where it is now brings nothing again.
    const third = await connect(ben, cursorOf(again), firstOf(first))
    expect(roomEvents(third, first, again)).toEqual([])
  })

  it('is told to fetch everything again when what it missed is gone or too much', async () => {
    const ada = await signedIn(t)
    const ben = await signedIn(t)
    const circle = await createCircle(t, ada)
    await addMember(t, ada, circle.id, ben)
    const first = await connect(ben)
    await first.next('connected')
    const cursor = cursorOf(first)
    first.close()
    await createItem(t, ada, circle.id, 'Pruned')
    await createItem(t, ada, circle.id, 'Also pruned')
    // What pruning does to rows older than the window.
    await t.database.db.execute(sql`delete from socket_events`)
    const late = await connect(ben, cursor)
    expect(roomEvents(late).map((r) => r.event)).toEqual(['resync'])

    // An id this database never gave (it was restored from an older backup).
    const ahead = await connect(ben, cursorOf(late) + 1000)
    expect(roomEvents(ahead).map((r) => r.event)).toEqual(['resync'])

    // More than the replay's bound.
    const cursor2 = cursorOf(ahead)
    await t.database.db.execute(sql`insert into socket_events (room, event, payload)
      select ${`user:${ben.user.id}`}, 'circle_update', ${JSON.stringify({ circleId: circle.id })}::jsonb
      from generate_series(1, ${REPLAY_MAX_EVENTS + 1})`)
    const flooded = await connect(ben, cursor2)
    expect(roomEvents(flooded).map((r) => r.event)).toEqual(['resync'])
  })
})

describe("a page's first connection", () => {
  /** The server's clock, as the client reads it from an answer's Date header (whole seconds). */
  const serverNow = async (who: SignedIn) =>
    Date.parse((await t.app.inject({ url: '/api/circles', headers: who.auth })).headers.date as string)

  it('gets the events since its page read its data, and is told so', async () => {
    const ada = await signedIn(t)
    const ben = await signedIn(t)
    const circle = await createCircle(t, ada)
    await addMember(t, ada, circle.id, ben)
    // Ben's page reads its data; what happens then and before his socket is up must reach him. The
    // client's time is a little early (the header's whole seconds): an event just before may come too.
    const since = new Date((await serverNow(ben)) - 1000).toISOString()
    const saw = await createItem(t, ada, circle.id, 'Saw')
    const listener = await connect(ben, undefined, undefined, since)
    const events = roomEvents(listener)
    expect(events).toContainEqual(
      expect.objectContaining({ event: 'item_update', payload: expect.objectContaining({ itemId: saw.id }) }),
    )
    // The events of one request are written side by side: their ids may come in either order.
    expect(events).toContainEqual(
      expect.objectContaining({
        event: 'new_activity',
        payload: expect.objectContaining({ type: 'NEW_ITEM' }),
      }),
    )
    expect(listener.received.at(-1)).toMatchObject({
      event: 'connected',
      payload: { userId: ben.user.id, lastEventId: expect.any(Number), replayedSince: true },
    })
  })

  it('without a time, or with one past the window, is not told it got everything', async () => {
    const ben = await signedIn(t)
    const plain = await connect(ben)
    expect(plain.received.at(-1)?.payload).not.toHaveProperty('replayedSince')
    const old = await connect(ben, undefined, undefined, new Date(Date.now() - 60 * 60_000).toISOString())
    expect(roomEvents(old).map((r) => r.event)).toEqual(['resync'])
    expect(old.received.at(-1)?.payload).not.toHaveProperty('replayedSince')
    // Not a time, or one ahead of the server's clock: as if none was given.
    for (const since of ['yesterday', new Date(Date.now() + 60 * 60_000).toISOString()]) {
      const odd = await connect(ben, undefined, undefined, since)
      expect(roomEvents(odd)).toEqual([])
      expect(odd.received.at(-1)?.payload).not.toHaveProperty('replayedSince')
    }
  })
})

describe('graceful shutdown', () => {
  it('answers not ready at once, finishes a request in flight, tells sockets to reconnect, then closes', async () => {
    const s = await createTestApp({ env: { BODY_MIN_BYTES_PER_SECOND: '1' } })
    const sUrl = await listen(s)
    const port = Number(new URL(sUrl).port)
    const ben = await signedIn(s)
    const socket = await connectAs(sUrl, tokenOf(ben))
    const disconnected = new Promise<string>((resolve) => socket.socket.once('disconnect', resolve))

    // A request in flight: its headers and half its body sent before the signal.
    const body = JSON.stringify({ name: 'Ben Drained' })
    const raw = tcpConnect(port, '127.0.0.1')
    const answer = new Promise<string>((resolve) => {
      let text = ''
      raw.on('data', (chunk) => (text += chunk.toString()))
      raw.on('close', () => resolve(text))
    })
    await new Promise<void>((resolve) => raw.once('connect', () => resolve()))
    raw.write(
      `PUT /api/users/me HTTP/1.1\r\nHost: localhost\r\n${Object.entries(ben.auth)
        .map(([k, v]) => `${k}: ${v}`)
        .join(
          '\r\n',
        )}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    )
    raw.write(body.slice(0, 5))

    const order: string[] = []
    let exitCode: number | undefined
    let shutdownDone = false
    const shutdown = gracefulShutdown({
      app: s.app,
      drain: s.app.drain,
      database: {
        close: async () => void order.push(s.app.server.listening ? 'database while listening' : 'database'),
      },
      drainMs: 400,
      timeoutMs: 10_000,
      exit: (code) => {
        exitCode = code
      },
    })
    const done = shutdown('SIGTERM').then(() => (shutdownDone = true))

    // Draining: not ready at once, the rest still served, each answer closing its connection.
    const ready = await fetch(`${sUrl}/api/ready`)
    expect(ready.status).toBe(503)
    expect(await ready.json()).toEqual({ status: 'not_ready', database: true, shuttingDown: true })
    const health = await fetch(`${sUrl}/api/health`)
    expect(health.status).toBe(200)
    expect(health.headers.get('connection')).toBe('close')

    // Then the socket hears it should reconnect elsewhere, and is disconnected by the server.
    expect(await socket.next('reconnect_soon')).toEqual({ withinMs: expect.any(Number) })
    expect(await disconnected).toBe('io server disconnect')
    // New connections are refused while the request in flight is still open.
    const deadline = Date.now() + 5000
    let refused = false
    while (!refused && Date.now() < deadline) {
      refused = await fetch(`${sUrl}/api/health`).then(
        () => false,
        () => true,
      )
    }
    expect(refused).toBe(true)
    expect(shutdownDone).toBe(false)

    raw.write(body.slice(5))
    const text = await answer
    expect(text).toMatch(/^HTTP\/1\.1 200/)
    expect(text.toLowerCase()).toContain('connection: close')
    expect(text).toContain('Ben Drained')
    await done
    expect(exitCode).toBe(0)
    expect(order).toEqual(['database'])
    socket.close()
    await s.close()
  })
})
