import type { TActivity } from '@circles/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SignedIn, addMember, createCircle, signedIn } from './support/circles'
import { answerHandover, createItem, handOver, pendingHandover, requestHandover } from './support/handovers'
import { type TestApp, createTestApp } from './support/test-app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

async function feed(who: SignedIn): Promise<TActivity[]> {
  const res = await t.app.inject({ method: 'GET', url: '/api/activities/recent', headers: who.auth })
  expect(res.statusCode).toBe(200)
  return res.json().activities
}

async function stats(who: SignedIn) {
  const res = await t.app.inject({ method: 'GET', url: '/api/dashboard/stats', headers: who.auth })
  expect(res.statusCode).toBe(200)
  return res.json()
}

/** An admin and a member of one circle; the member's feed already holds the invitation. */
async function circleOfTwo() {
  const admin = await signedIn(t, { name: 'Ada Admin' })
  const member = await signedIn(t, { name: 'Ben Member' })
  const circle = await createCircle(t, admin, { name: 'Workshop' })
  await addMember(t, admin, circle.id, member)
  return { admin, member, circle }
}

describe('GET /api/activities/recent and /api/dashboard/stats', () => {
  it('need a session', async () => {
    for (const url of ['/api/activities/recent', '/api/dashboard/stats']) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401)
    }
  })

  it('start empty for a new account', async () => {
    const someone = await signedIn(t)
    expect(await feed(someone)).toEqual([])
    expect(await stats(someone)).toEqual({ totalCircles: 0, pendingHandovers: 0, ownedItems: 0 })
  })

  it('tell an invited account holder of the invitation, with the circle and the admin', async () => {
    const { member, circle } = await circleOfTwo()
    const [invitation] = await feed(member)
    expect(invitation).toMatchObject({
      type: 'CIRCLE_INVITATION',
      title: 'Ada Admin invited you to Workshop',
      data: { circle: { id: circle.id, name: 'Workshop' }, admin: { name: 'Ada Admin' } },
    })
    expect(Date.now() - Date.parse(invitation!.timestamp)).toBeLessThan(60_000)
  })

  it('tell the other members of a new item, not its creator', async () => {
    const { admin, member, circle } = await circleOfTwo()
    const item = await createItem(t, admin, circle.id, 'Ladder')
    expect((await feed(member))[0]).toMatchObject({
      type: 'NEW_ITEM',
      data: {
        id: item.id,
        name: 'Ladder',
        owner: { name: 'Ada Admin' },
        circle: { id: circle.id, name: 'Workshop' },
      },
    })
    expect((await feed(admin)).map((a) => a.type)).not.toContain('NEW_ITEM')
  })

  it('follow a handover: the request to the receiver, the confirmation to both, never the secret', async () => {
    const { admin, member, circle } = await circleOfTwo()
    const item = await createItem(t, admin, circle.id, 'Drill')
    const pending = await pendingHandover(t, admin, member, item.id, {
      secretMessage: 'key under the mat',
      requesterComment: 'careful with the chuck',
    })
    const request = (await feed(member))[0]
    expect(request).toMatchObject({
      type: 'PENDING_HANDOVER',
      title: 'Ada Admin wants to hand you Drill',
      data: {
        item: { id: item.id, name: 'Drill' },
        sender: { name: 'Ada Admin' },
        receiver: { name: 'Ben Member' },
        circleId: circle.id,
        handoverId: pending.id,
      },
    })
    expect((await feed(admin)).map((a) => a.type)).not.toContain('PENDING_HANDOVER')
    expect(await stats(admin)).toEqual({ totalCircles: 1, pendingHandovers: 1, ownedItems: 1 })
    expect(await stats(member)).toEqual({ totalCircles: 1, pendingHandovers: 1, ownedItems: 0 })

    expect((await answerHandover(t, member, pending.id, 'CONFIRMED', 'thanks')).statusCode).toBe(200)
    for (const who of [admin, member]) {
      const [confirmed] = await feed(who)
      expect(confirmed).toMatchObject({ type: 'CONFIRMED_HANDOVER', data: { handoverId: pending.id } })
    }
    expect(await stats(admin)).toEqual({ totalCircles: 1, pendingHandovers: 0, ownedItems: 0 })
    expect(await stats(member)).toEqual({ totalCircles: 1, pendingHandovers: 0, ownedItems: 1 })
    const everything = JSON.stringify([await feed(admin), await feed(member)])
    for (const text of ['key under the mat', 'careful with the chuck', 'thanks']) {
      expect(everything).not.toContain(text)
    }
  })

  it('say what became of a request: open, rejected, cancelled, withdrawn, accepted (decisions/0029)', async () => {
    const { admin, member, circle } = await circleOfTwo()
    const status = async (handoverId: string) =>
      (await feed(member)).find((a) => a.type === 'PENDING_HANDOVER' && a.data.handoverId === handoverId)
        ?.handoverStatus
    const drill = await createItem(t, admin, circle.id, 'Drill')
    const first = await pendingHandover(t, admin, member, drill.id)
    expect(await status(first.id)).toBe('PENDING')
    expect((await answerHandover(t, member, first.id, 'REJECTED')).statusCode).toBe(200)
    expect(await status(first.id)).toBe('REJECTED')
    const second = await pendingHandover(t, admin, member, drill.id)
    const cancel = await t.app.inject({
      method: 'DELETE',
      url: `/api/handovers/${second.id}`,
      headers: admin.auth,
    })
    expect(cancel.statusCode).toBe(200)
    expect(await status(second.id)).toBe('CANCELLED')
    const third = await pendingHandover(t, admin, member, drill.id)
    expect((await answerHandover(t, member, third.id, 'CONFIRMED')).statusCode).toBe(200)
    expect(await status(third.id)).toBe('CONFIRMED')
    // Other entries carry no handover status.
    expect((await feed(member)).find((a) => a.type === 'CIRCLE_INVITATION')).not.toHaveProperty(
      'handoverStatus',
    )
    // A request withdrawn because its receiver left reads as cancelled too.
    const ladder = await createItem(t, admin, circle.id, 'Ladder')
    const fourth = await pendingHandover(t, admin, member, ladder.id)
    const left = await t.app.inject({
      method: 'POST',
      url: `/api/circles/${circle.id}/leave`,
      headers: member.auth,
    })
    expect(left.statusCode).toBe(200)
    expect(await status(fourth.id)).toBe('CANCELLED')
  })

  it('write nothing for a refused change', async () => {
    const { admin, member, circle } = await circleOfTwo()
    const item = await createItem(t, admin, circle.id)
    const before = await feed(admin)
    expect((await requestHandover(t, admin, { itemId: item.id, receiverId: admin.user.id })).statusCode).toBe(
      400,
    )
    const pending = await pendingHandover(t, admin, member, item.id)
    expect((await answerHandover(t, member, pending.id, 'REJECTED')).statusCode).toBe(200)
    expect((await answerHandover(t, member, pending.id, 'CONFIRMED')).statusCode).toBe(409)
    expect(await feed(admin)).toEqual(before)
  })

  it('record an automatic transfer for both parties when a partial holder leaves', async () => {
    const { admin, member, circle } = await circleOfTwo()
    const item = await createItem(t, admin, circle.id, 'Tent')
    await handOver(t, admin, member, item.id)
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/circles/${circle.id}/leave`,
      headers: member.auth,
    })
    expect(res.statusCode).toBe(200)
    for (const who of [admin, member]) {
      expect((await feed(who))[0]).toMatchObject({
        type: 'AUTO_TRANSFER',
        data: {
          item: { id: item.id, name: 'Tent' },
          sender: { name: 'Ben Member' },
          receiver: { name: 'Ada Admin' },
        },
      })
    }
    expect(await stats(admin)).toMatchObject({ ownedItems: 1 })
    expect(await stats(member)).toEqual({ totalCircles: 0, pendingHandovers: 0, ownedItems: 0 })
  })

  it('answers the newest ten, newest first', async () => {
    const { admin, member, circle } = await circleOfTwo()
    const third = await signedIn(t)
    await addMember(t, admin, circle.id, third)
    // Two creators: the Personal plan lets one person hold 10 items.
    for (let i = 1; i <= 12; i++) await createItem(t, i % 2 ? admin : third, circle.id, `Thing ${i}`)
    const entries = await feed(member)
    expect(entries).toHaveLength(10)
    expect(entries.map((a) => (a.type === 'NEW_ITEM' ? a.data.name : a.type))).toEqual(
      Array.from({ length: 10 }, (_, i) => `Thing ${12 - i}`),
    )
  })
})
