import { createHmac } from 'node:crypto'
import type { TActivity } from '@circles/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSessionTokens } from '../src/modules/auth/session-token'
import { type SignedIn, addMember, createCircle, signedIn } from './support/circles'
import { answerHandover, createItem, pendingHandover } from './support/handovers'
import { type Listener, connectAs, listen, refusedConnection, tokenOf } from './support/sockets'
import {
  TEST_JWT_SECRET,
  type TestApp,
  createTestApp,
  secondInstance,
  tokenFromEmail,
} from './support/test-app'

/** A correctly signed session token whose expiry passed a minute ago. */
function expiredToken(userId: string) {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const now = Math.floor(Date.now() / 1000)
  const body = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ userId, sv: 0, iat: now - 120, exp: now - 60 })}`
  return `${body}.${createHmac('sha256', TEST_JWT_SECRET).update(body).digest('base64url')}`
}

/** Waits a moment for anything that should not arrive, then lists what did. */
async function quietly(listener: Listener, events: string[]) {
  await new Promise((r) => setTimeout(r, 300))
  return listener.received.filter((r) => events.includes(r.event))
}

interface Cluster {
  /** The instance the user at `index` connects to: one server, or alternating between two. */
  urlFor(index: number): string
  api: TestApp
}

function realtimeSuite(name: string, start: () => Promise<{ cluster: Cluster; stop(): Promise<void> }>) {
  describe(name, () => {
    let cluster: Cluster
    let stop: () => Promise<void>
    const open: Listener[] = []
    beforeAll(async () => {
      ;({ cluster, stop } = await start())
    })
    afterAll(async () => {
      for (const l of open) l.close()
      await stop()
    })
    const t = () => cluster.api
    async function connect(who: SignedIn, index: number) {
      const listener = await connectAs(cluster.urlFor(index), tokenOf(who))
      open.push(listener)
      return listener
    }

    it('refuses a missing, forged or expired token', async () => {
      const url = cluster.urlFor(0)
      expect(await refusedConnection(url, undefined)).toBe('Unauthorized')
      expect(await refusedConnection(url, 'not-a-token')).toBe('Unauthorized')
      const someone = await signedIn(t())
      const forged = createSessionTokens('another-secret-'.padEnd(48, 'x')).issue({
        userId: someone.user.id,
        sv: 0,
      })
      expect(await refusedConnection(url, forged)).toBe('Unauthorized')
      expect(await refusedConnection(url, expiredToken(someone.user.id))).toBe('Unauthorized')
    })

    it('sends a handover to exactly its parties, an item change to the circle, the secret to nobody', async () => {
      const admin = await signedIn(t(), { name: 'Ada' })
      const member = await signedIn(t(), { name: 'Ben' })
      const bystander = await signedIn(t(), { name: 'Cleo' })
      const outsider = await signedIn(t(), { name: 'Dan' })
      const circle = await createCircle(t(), admin)
      await addMember(t(), admin, circle.id, member)
      await addMember(t(), admin, circle.id, bystander)
      await createCircle(t(), outsider)
      const item = await createItem(t(), admin, circle.id, 'Drill')
      const [a, b, c, d] = await Promise.all([
        connect(admin, 0),
        connect(member, 1),
        connect(bystander, 0),
        connect(outsider, 1),
      ])

      const pending = await pendingHandover(t(), admin, member, item.id, { secretMessage: 'under the mat' })
      const activity = await b.next<TActivity>('new_activity')
      expect(activity).toMatchObject({ type: 'PENDING_HANDOVER', data: { handoverId: pending.id } })
      const update = { handoverId: pending.id, itemId: item.id, circleId: circle.id, status: 'PENDING' }
      expect(await b.next('handover_update')).toEqual(update)
      expect(await a.next('handover_update')).toEqual(update)
      expect(await c.next('item_update')).toEqual({ itemId: item.id, circleId: circle.id })

      expect((await answerHandover(t(), member, pending.id, 'CONFIRMED')).statusCode).toBe(200)
      const confirmed = (p: { status?: string; type?: string }) =>
        p.status === 'CONFIRMED' || p.type === 'CONFIRMED_HANDOVER'
      for (const party of [a, b]) {
        expect(await party.next('handover_update', confirmed)).toMatchObject({ status: 'CONFIRMED' })
        expect(await party.next('new_activity', confirmed)).toMatchObject({ type: 'CONFIRMED_HANDOVER' })
      }
      expect(await quietly(c, ['handover_update', 'new_activity'])).toEqual([])
      expect(await quietly(d, ['handover_update', 'new_activity', 'item_update'])).toEqual([])
      const adminActivities = a.received.filter((r) => r.event === 'new_activity')
      expect(adminActivities.map((r) => (r.payload as TActivity).type)).toEqual(['CONFIRMED_HANDOVER'])
      expect(JSON.stringify([a, b, c, d].map((l) => l.received))).not.toContain('under the mat')
    })

    it('keeps a non-member out of a circle room and takes a removed member out at once', async () => {
      const admin = await signedIn(t())
      const member = await signedIn(t())
      const outsider = await signedIn(t())
      const circle = await createCircle(t(), admin)
      await addMember(t(), admin, circle.id, member)
      const m = await connect(member, 1)
      const o = await connect(outsider, 0)

      o.socket.emit('join_circle', circle.id)
      expect(await o.next('error')).toEqual({ message: 'Forbidden', code: 'FORBIDDEN', key: 'forbidden' })
      o.socket.emit('join_circle', 'not-a-uuid')
      await createItem(t(), admin, circle.id)
      expect(await m.next('item_update')).toMatchObject({ circleId: circle.id })
      expect(await quietly(o, ['item_update'])).toEqual([])

      const res = await t().app.inject({
        method: 'DELETE',
        url: `/api/circles/${circle.id}/users/${member.user.id}`,
        headers: admin.auth,
      })
      expect(res.statusCode).toBe(200)
      expect(await m.next('circle_left')).toEqual({ circleId: circle.id })
      const before = m.received.length
      await createItem(t(), admin, circle.id, 'After')
      await quietly(m, [])
      expect(m.received.slice(before).filter((r) => r.event === 'item_update')).toEqual([])
    })

    it('moves a new member into the room and tells an invited account holder', async () => {
      const admin = await signedIn(t(), { name: 'Ada' })
      const newcomer = await signedIn(t())
      const circle = await createCircle(t(), admin, { name: 'Garden' })
      const n = await connect(newcomer, 1)
      await addMember(t(), admin, circle.id, newcomer)
      expect(await n.next<TActivity>('new_activity')).toMatchObject({
        type: 'CIRCLE_INVITATION',
        data: { circle: { id: circle.id, name: 'Garden' }, admin: { name: 'Ada' } },
      })
      expect(await n.next('circle_joined')).toEqual({ circleId: circle.id })
      await createItem(t(), admin, circle.id, 'Rake')
      expect(await n.next<TActivity>('new_activity', (a) => a.type === 'NEW_ITEM')).toMatchObject({
        data: { name: 'Rake' },
      })
      expect(await n.next('item_update')).toMatchObject({ circleId: circle.id })
    })

    it('closes the sockets of a session that a password reset ended', async () => {
      const someone = await signedIn(t())
      const s = await connect(someone, 0)
      const closed = new Promise((resolve) => s.socket.once('disconnect', resolve))
      await t().app.inject({
        method: 'POST',
        url: '/api/users/request-password-reset',
        payload: { email: someone.user.email },
      })
      const [mail] = await t().emailsTo(someone.user.email)
      const token = tokenFromEmail(mail!.textBody, '/reset-password')
      const res = await t().app.inject({
        method: 'POST',
        url: '/api/users/reset-password',
        payload: { token, newPassword: 'a new long password', confirmPassword: 'a new long password' },
      })
      expect(res.statusCode).toBe(200)
      expect(await closed).toBe('io server disconnect')
      expect(await refusedConnection(cluster.urlFor(1), tokenOf(someone))).toBe('Unauthorized')
    })
  })
}

realtimeSuite('real-time events on one server', async () => {
  const t = await createTestApp()
  const url = await listen(t)
  return { cluster: { api: t, urlFor: () => url }, stop: () => t.close() }
})

// Two instances behind a load balancer: events raised on one reach sockets on the other.
describe.runIf(process.env.DATABASE_URL)('across two instances', () => {
  realtimeSuite('real-time events across two servers on one PostgreSQL', async () => {
    const first = await createTestApp()
    const second = await secondInstance(first)
    const urls = [await listen(first), await listen(second)]
    return {
      cluster: { api: first, urlFor: (index) => urls[index % 2]! },
      async stop() {
        await second.close()
        await first.close()
      },
    }
  })
})

describe.runIf(process.env.DATABASE_URL)('the PostgreSQL adapter', () => {
  it('lets an instance close at once after it started (no LISTEN client left behind)', async () => {
    for (let i = 0; i < 5; i++) {
      const t = await createTestApp()
      await t.close()
    }
  }, 20_000)
})
