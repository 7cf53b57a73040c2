import { verifyExport } from '@circles/ledger'
import { MESSAGES } from '@circles/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, createCircle, type SignedIn, signedIn } from './support/circles'
import { answerHandover, createItem, handOver, pendingHandover, requestHandover } from './support/handovers'
import { createTestApp, type TestApp } from './support/test-app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

/** A circle with its admin and two members; the first member holds a drill. */
async function circleWithItem() {
  const admin = await signedIn(t, { name: 'Ada Admin' })
  const owner = await signedIn(t, { name: 'Otto Owner' })
  const receiver = await signedIn(t, { name: 'Rita Receiver' })
  const circle = await createCircle(t, admin)
  await addMember(t, admin, circle.id, owner)
  await addMember(t, admin, circle.id, receiver)
  const item = await createItem(t, owner, circle.id)
  return { admin, owner, receiver, circle, item }
}

const call = (who: SignedIn | null, method: 'GET' | 'DELETE', url: string) =>
  t.app.inject({ method, url, headers: who?.auth ?? {} })

describe('handover requests', () => {
  it('the owner asks a member; both see it PENDING, the item is flagged and cannot be edited', async () => {
    const { owner, receiver, item } = await circleWithItem()
    const res = await requestHandover(t, owner, {
      itemId: item.id,
      receiverId: receiver.user.id,
      requesterComment: 'Batteries are charged',
      secretMessage: 'The case code is 4711',
      completeOwnership: true,
    })
    expect(res.statusCode).toBe(201)
    expect(res.json().message).toBe(MESSAGES.handoverCreated)
    const handover = res.json().handover
    expect(handover).toMatchObject({
      itemId: item.id,
      senderId: owner.user.id,
      receiverId: receiver.user.id,
      status: 'PENDING',
      requesterComment: 'Batteries are charged',
      secretMessage: null,
      hasSecretMessage: true,
      completeOwnership: true,
      sender: { name: 'Otto Owner' },
      receiver: { name: 'Rita Receiver' },
      item: { name: 'Cordless drill' },
      block: null,
      answeredAt: null,
    })
    const received = (await call(receiver, 'GET', '/api/handovers')).json().handovers
    expect(received).toHaveLength(1)
    expect(received[0].secretMessage).toBe('The case code is 4711')

    const itemNow = (await call(owner, 'GET', `/api/items/${item.id}`)).json().item
    expect(itemNow).toMatchObject({ hasPendingHandovers: true, locked: false })
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/items/${item.id}`,
      headers: owner.auth,
      payload: { name: 'Renamed' },
    })
    expect(edit.statusCode).toBe(409)
    expect(edit.json().message).toBe(MESSAGES.itemPendingHandover)
    const del = await call(owner, 'DELETE', `/api/items/${item.id}`)
    expect(del.statusCode).toBe(409)
  })

  it('refuses a bad receiver id, yourself, a non-member, a second pending request and a non-owner', async () => {
    const { admin, owner, receiver, item } = await circleWithItem()
    const outsider = await signedIn(t)
    const bad = await requestHandover(t, owner, { itemId: item.id, receiverId: 'nobody' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().message).toBe(MESSAGES.invalidUserId)
    const self = await requestHandover(t, owner, { itemId: item.id, receiverId: owner.user.id })
    expect(self.json().message).toBe(MESSAGES.handoverToSelf)
    const stranger = await requestHandover(t, owner, { itemId: item.id, receiverId: outsider.user.id })
    expect(stranger.statusCode).toBe(400)
    expect(stranger.json().message).toBe(MESSAGES.handoverReceiverNotMember)
    const notOwner = await requestHandover(t, admin, { itemId: item.id, receiverId: receiver.user.id })
    expect(notOwner.statusCode).toBe(403)
    expect(notOwner.json().message).toBe(MESSAGES.handoverOnlyOwner)
    const foreign = await requestHandover(t, outsider, { itemId: item.id, receiverId: receiver.user.id })
    expect(foreign.statusCode).toBe(404)
    await pendingHandover(t, owner, receiver, item.id)
    const second = await requestHandover(t, owner, { itemId: item.id, receiverId: admin.user.id })
    expect(second.statusCode).toBe(409)
    expect(second.json().message).toBe(MESSAGES.handoverPendingExists)
  })

  it('only the sender cancels a pending request; it stays in the history as CANCELLED (decisions/0029)', async () => {
    const { admin, owner, receiver, item } = await circleWithItem()
    const pending = await pendingHandover(t, owner, receiver, item.id)
    const byReceiver = await call(receiver, 'DELETE', `/api/handovers/${pending.id}`)
    expect(byReceiver.statusCode).toBe(403)
    expect(byReceiver.json().message).toBe(MESSAGES.handoverOnlySender)
    const byAdmin = await call(admin, 'DELETE', `/api/handovers/${pending.id}`)
    expect(byAdmin.statusCode).toBe(403)
    const cancelled = await call(owner, 'DELETE', `/api/handovers/${pending.id}`)
    expect(cancelled.statusCode).toBe(200)
    expect(cancelled.json().message).toBe(MESSAGES.handoverCancelled)
    const history = (await call(owner, 'GET', `/api/handovers/item/${item.id}`)).json().handovers
    expect(history).toHaveLength(1)
    expect(history[0]).toMatchObject({ id: pending.id, status: 'CANCELLED', block: null })
    expect(history[0].answeredAt).not.toBeNull()
    const mine = (await call(receiver, 'GET', '/api/handovers')).json().handovers
    expect(mine.map((h: { status: string }) => h.status)).toEqual(['CANCELLED'])
    expect((await call(owner, 'GET', `/api/items/${item.id}`)).json().item.hasPendingHandovers).toBe(false)
    expect((await call(receiver, 'GET', '/api/dashboard/stats')).json().pendingHandovers).toBe(0)
    const again = await call(owner, 'DELETE', `/api/handovers/${pending.id}`)
    expect(again.statusCode).toBe(409)
    expect(again.json().message).toBe(MESSAGES.handoverAlreadyCancelled)
    const late = await answerHandover(t, receiver, pending.id, 'CONFIRMED')
    expect(late.statusCode).toBe(409)
    expect(late.json().message).toBe(MESSAGES.handoverAlreadyCancelled)
    // A new request can follow the cancelled one.
    const next = await pendingHandover(t, owner, receiver, item.id)
    const both = (await call(owner, 'GET', `/api/handovers/item/${item.id}`)).json().handovers
    expect(both.map((h: { id: string; status: string }) => [h.id, h.status])).toEqual([
      [next.id, 'PENDING'],
      [pending.id, 'CANCELLED'],
    ])
  })
})

describe('answers', () => {
  it('the receiver confirms: new holder with the chosen ownership, one block, the item locked', async () => {
    const { admin, owner, receiver, item, circle } = await circleWithItem()
    const pending = await pendingHandover(t, owner, receiver, item.id, { secretMessage: 'Code 4711' })
    const bySender = await answerHandover(t, owner, pending.id, 'CONFIRMED')
    expect(bySender.statusCode).toBe(403)
    expect(bySender.json().message).toBe(MESSAGES.handoverOnlyReceiver)
    const res = await answerHandover(t, receiver, pending.id, 'CONFIRMED', 'Thanks!')
    expect(res.statusCode).toBe(200)
    expect(res.json().message).toBe(MESSAGES.handoverConfirmed)
    const handover = res.json().handover
    expect(handover).toMatchObject({
      status: 'CONFIRMED',
      receiverComment: 'Thanks!',
      secretMessage: 'Code 4711',
    })
    expect(handover.block).toMatchObject({ hash: expect.stringMatching(/^[0-9a-f]{64}$/) })
    expect(handover.answeredAt).not.toBeNull()
    // The answer is what the server holds from then on.
    const listed = (await call(receiver, 'GET', `/api/handovers/item/${item.id}`)).json().handovers
    expect(listed).toEqual([handover])

    const after = (await call(receiver, 'GET', `/api/items/${item.id}`)).json().item
    expect(after).toMatchObject({ ownerId: receiver.user.id, ownership: 'PARTIAL', locked: true })
    const status = (await call(receiver, 'GET', `/api/items/${item.id}/ownership-status`)).json()
    expect(status.hasFullOwnership).toBe(false)
    // Locked: not even the admin edits it.
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/items/${item.id}`,
      headers: admin.auth,
      payload: { name: 'Renamed' },
    })
    expect(edit.json().message).toBe(MESSAGES.itemLocked)

    const blocks = (await call(admin, 'GET', `/api/blockchain/circle/${circle.id}`)).json().blocks
    expect(blocks).toHaveLength(1)
    expect(blocks[0]).toMatchObject({
      id: handover.block.id,
      hash: handover.block.hash,
      content: {
        kind: 'HANDOVER',
        height: 0,
        first: true,
        prevHash: '0'.repeat(64),
        item: { id: item.id, name: 'Cordless drill' },
        from: { id: owner.user.id },
        to: { id: receiver.user.id },
        ownership: 'PARTIAL',
      },
      // Encoding v3 (issue 24): the names beside the content, which holds their commitments.
      names: { from: { name: 'Otto Owner' }, to: { name: 'Rita Receiver' } },
      comments: { receiverComment: 'Thanks!', secretMessage: null },
    })
    expect(blocks[0].content.commitments.secretMessage).toMatch(/^[0-9a-f]{64}$/)

    const twice = await answerHandover(t, receiver, pending.id, 'REJECTED')
    expect(twice.statusCode).toBe(409)
    expect(twice.json().message).toBe(MESSAGES.handoverAlreadyAnswered)
  })

  it('the receiver rejects: nothing moves, no block, the owner may ask again', async () => {
    const { owner, receiver, item, circle } = await circleWithItem()
    const pending = await pendingHandover(t, owner, receiver, item.id)
    const res = await answerHandover(t, receiver, pending.id, 'REJECTED', 'Not now')
    expect(res.statusCode).toBe(200)
    expect(res.json().message).toBe(MESSAGES.handoverRejected)
    expect(res.json().handover).toMatchObject({ status: 'REJECTED', receiverComment: 'Not now', block: null })
    const after = (await call(owner, 'GET', `/api/items/${item.id}`)).json().item
    expect(after).toMatchObject({ ownerId: owner.user.id, locked: false, hasPendingHandovers: false })
    expect((await call(owner, 'GET', `/api/blockchain/circle/${circle.id}`)).json().blocks).toEqual([])
    await pendingHandover(t, owner, receiver, item.id)
  })

  it('complete ownership passes only from a complete holder; the former sender cannot hand it on', async () => {
    const { admin, owner, receiver, item } = await circleWithItem()
    await handOver(t, owner, receiver, item.id, { completeOwnership: false })
    // The receiver holds it partially: may hand it on, but not completely.
    const complete = await requestHandover(t, receiver, {
      itemId: item.id,
      receiverId: admin.user.id,
      completeOwnership: true,
    })
    expect(complete.statusCode).toBe(403)
    expect(complete.json().message).toBe(MESSAGES.handoverCompleteNeedsComplete)
    const formerSender = await requestHandover(t, owner, { itemId: item.id, receiverId: admin.user.id })
    expect(formerSender.statusCode).toBe(403)
    // The true reason: someone else holds it now, not that it was once handed over.
    expect(formerSender.json().message).toBe(MESSAGES.handoverOnlyOwner)
    const partialDelete = await call(receiver, 'DELETE', `/api/items/${item.id}`)
    expect(partialDelete.json().message).toBe(MESSAGES.itemDeleteNeedsCompleteOwnership)
    await handOver(t, receiver, admin, item.id)
    const chain = (await call(admin, 'GET', `/api/blockchain/item/${item.id}`)).json().blocks
    expect(chain.map((b: { content: { height: number } }) => b.content.height)).toEqual([1, 0])
    expect(chain[0].content.prevHash).toBe(chain[1].hash)
  })

  it('a complete handover lets the receiver delete the item; its blocks stay', async () => {
    const { owner, receiver, item, circle } = await circleWithItem()
    await handOver(t, owner, receiver, item.id, { completeOwnership: true })
    expect((await call(receiver, 'DELETE', `/api/items/${item.id}`)).statusCode).toBe(200)
    const blocks = (await call(owner, 'GET', `/api/blockchain/circle/${circle.id}`)).json().blocks
    expect(blocks).toHaveLength(1)
    expect(blocks[0].item).toBeNull()
    const verify = (await call(owner, 'GET', `/api/blockchain/verify/${circle.id}`)).json()
    expect(verify).toMatchObject({ valid: true, blockCount: 1, failingBlocks: [] })
  })
})

describe('members leaving', () => {
  it('a removed receiver’s pending request is withdrawn; partial items pass to the admin with a block', async () => {
    const { admin, owner, receiver, item, circle } = await circleWithItem()
    const other = await createItem(t, owner, circle.id, 'Ladder')
    await handOver(t, owner, receiver, item.id)
    await pendingHandover(t, owner, receiver, other.id)
    const removed = await call(admin, 'DELETE', `/api/circles/${circle.id}/users/${receiver.user.id}`)
    expect(removed.statusCode).toBe(200)
    expect((await call(owner, 'GET', `/api/items/${other.id}`)).json().item.hasPendingHandovers).toBe(false)
    // The withdrawn request stays in the item's history, cancelled (docs/decisions/0029).
    const history = (await call(owner, 'GET', `/api/handovers/item/${other.id}`)).json().handovers
    expect(history.map((h: { status: string }) => h.status)).toEqual(['CANCELLED'])
    // Otto made it and lent it partially: it goes to the admin, in her care (docs/decisions/0027).
    const moved = (await call(admin, 'GET', `/api/items/${item.id}`)).json().item
    expect(moved).toMatchObject({ ownerId: admin.user.id, ownership: 'PARTIAL' })
    const blocks = (await call(admin, 'GET', `/api/blockchain/circle/${circle.id}`)).json().blocks
    expect(blocks[0].content).toMatchObject({
      kind: 'AUTO_TRANSFER',
      height: 1,
      handoverId: null,
      from: { id: receiver.user.id },
      to: { id: admin.user.id },
      ownership: 'PARTIAL',
      reason: 'REMOVED',
    })
    expect(blocks[0].names).toMatchObject({ from: { name: 'Rita Receiver' }, to: { name: 'Ada Admin' } })
    expect((await call(admin, 'GET', `/api/blockchain/verify/${circle.id}`)).json().valid).toBe(true)
  })

  it('two partial items of someone who leaves pass under one ledger lock as two linked, signed blocks', async () => {
    const { admin, owner, receiver, item, circle } = await circleWithItem()
    const other = await createItem(t, owner, circle.id, 'Ladder')
    await handOver(t, owner, receiver, item.id)
    await handOver(t, owner, receiver, other.id)
    const removed = await call(admin, 'DELETE', `/api/circles/${circle.id}/users/${receiver.user.id}`)
    expect(removed.statusCode).toBe(200)
    const blocks = (await call(admin, 'GET', `/api/blockchain/circle/${circle.id}`)).json().blocks
    expect(blocks.map((b: { content: { height: number; kind: string } }) => b.content)).toMatchObject([
      { height: 3, kind: 'AUTO_TRANSFER' },
      { height: 2, kind: 'AUTO_TRANSFER' },
      { height: 1, kind: 'HANDOVER' },
      { height: 0, kind: 'HANDOVER' },
    ])
    expect(blocks[0].content.prevHash).toBe(blocks[1].hash)
    expect(blocks[1].content.prevHash).toBe(blocks[2].hash)
    expect((await call(admin, 'GET', `/api/blockchain/verify/${circle.id}`)).json().valid).toBe(true)
    // Every checkpoint signed under the one lock holds the root of the blocks before it.
    const exported = await call(admin, 'GET', `/api/ledger/${circle.id}/export`)
    expect(verifyExport(exported.body)).toMatchObject({ valid: true, blockCount: 4, checkpoint: { size: 4 } })
  })

  it('a confirmation after the receiver was removed is refused', async () => {
    const { admin, owner, receiver, item, circle } = await circleWithItem()
    const pending = await pendingHandover(t, owner, receiver, item.id)
    await call(admin, 'DELETE', `/api/circles/${circle.id}/users/${receiver.user.id}`)
    const res = await answerHandover(t, receiver, pending.id, 'CONFIRMED')
    // The request was cancelled with the removal, and that is what its receiver learns.
    expect(res.statusCode).toBe(409)
    expect(res.json().message).toBe(MESSAGES.handoverAlreadyCancelled)
    expect((await call(owner, 'GET', `/api/items/${item.id}`)).json().item.ownerId).toBe(owner.user.id)
  })
})

describe('privacy', () => {
  it('no endpoint gives the secret message to anyone but the receiver', async () => {
    const { admin, owner, receiver, item, circle } = await circleWithItem()
    const secret = 'only-for-rita-7f3a9c'
    const handover = await handOver(t, owner, receiver, item.id, { secretMessage: secret })
    const urls = [
      '/api/handovers',
      `/api/handovers/item/${item.id}`,
      '/api/blockchain',
      `/api/blockchain/${handover.block!.id}`,
      `/api/blockchain/item/${item.id}`,
      `/api/blockchain/circle/${circle.id}`,
      `/api/blockchain/verify/${circle.id}`,
      `/api/items/${item.id}`,
      '/api/items',
      `/api/items/circle/${circle.id}`,
      `/api/circles/${circle.id}`,
    ]
    for (const who of [owner, admin]) {
      for (const url of urls) {
        const res = await call(who, 'GET', url)
        expect(res.statusCode, url).toBe(200)
        expect(res.body, url).not.toContain(secret)
      }
    }
    expect((await call(receiver, 'GET', `/api/blockchain/${handover.block!.id}`)).body).toContain(secret)
  })

  it('outsiders and anonymous callers read no handover and no block', async () => {
    const { owner, receiver, item, circle } = await circleWithItem()
    const handover = await handOver(t, owner, receiver, item.id)
    const outsider = await signedIn(t)
    expect((await call(outsider, 'GET', `/api/handovers/item/${item.id}`)).statusCode).toBe(404)
    expect((await call(outsider, 'GET', `/api/blockchain/${handover.block!.id}`)).statusCode).toBe(404)
    expect((await call(outsider, 'GET', `/api/blockchain/circle/${circle.id}`)).statusCode).toBe(404)
    expect((await call(outsider, 'GET', `/api/blockchain/verify/${circle.id}`)).statusCode).toBe(404)
    expect((await call(outsider, 'GET', `/api/blockchain/item/${item.id}`)).statusCode).toBe(404)
    expect((await call(outsider, 'GET', '/api/blockchain')).json().blocks).toEqual([])
    expect((await call(null, 'GET', '/api/blockchain')).statusCode).toBe(401)
    expect((await call(null, 'GET', '/api/handovers')).statusCode).toBe(401)
  })
})
