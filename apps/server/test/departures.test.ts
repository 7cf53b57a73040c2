// Issue 23: a member who leaves or is removed. Where their partial items go back and with what
// ownership, the reason each automatic transfer's block records (encoding v2, beside v1 blocks that
// keep verifying), and what a former member is told when they open the circle or its ledger.
import { type BlockContentV1, blockBytes, blockHash, GENESIS_PREV_HASH, verifyExport } from '@circles/ledger'
import { MESSAGES, type TActivity, type TBlock } from '@circles/shared'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { blocks, ledgerHeads } from '../src/db/schema'
import { addMember, createCircle, type SignedIn, signedIn } from './support/circles'
import { createItem, handOver } from './support/handovers'
import { createTestApp, type TestApp } from './support/test-app'
import { legacyBlockRow } from './support/legacy-blocks'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const call = (who: SignedIn, method: 'GET' | 'DELETE', url: string) =>
  t.app.inject({ method, url, headers: who.auth })
const post = (who: SignedIn, url: string) => t.app.inject({ method: 'POST', url, headers: who.auth })
const blocksOf = async (who: SignedIn, circleId: string) =>
  (await call(who, 'GET', `/api/blockchain/circle/${circleId}`)).json().blocks as TBlock[]
const feedOf = async (who: SignedIn) =>
  (await call(who, 'GET', '/api/activities/recent')).json().activities as TActivity[]

/** Ida runs the circle; Otto and Ben are members. */
async function circle() {
  const ida = await signedIn(t, { name: 'Ida Admin' })
  const otto = await signedIn(t, { name: 'Otto Owner' })
  const ben = await signedIn(t, { name: 'Ben Borrower' })
  const c = await createCircle(t, ida, { name: 'Linden Street' })
  await addMember(t, ida, c.id, otto)
  await addMember(t, ida, c.id, ben)
  return { ida, otto, ben, circle: c }
}

describe('partial items go to the admin, completely when she had it so before', () => {
  it('the admin removes Ben, who borrowed the admin’s drill: it is the admin’s again, completely', async () => {
    const { ida, ben, circle: c } = await circle()
    const drill = await createItem(t, ida, c.id, 'Drill')
    await handOver(t, ida, ben, drill.id)
    expect((await call(ida, 'DELETE', `/api/circles/${c.id}/users/${ben.user.id}`)).statusCode).toBe(200)

    const item = (await call(ida, 'GET', `/api/items/${drill.id}`)).json().item
    expect(item).toMatchObject({ ownerId: ida.user.id, ownership: 'COMPLETE' })
    const status = (await call(ida, 'GET', `/api/items/${drill.id}/ownership-status`)).json()
    expect(status).toMatchObject({ hasFullOwnership: true })
    const [block] = await blocksOf(ida, c.id)
    // Encoding v3 since issue 24 (v4 since issue 26, v5 since issue 28): the names beside the content, which holds their commitments.
    expect(block!.content).toMatchObject({
      v: 5,
      kind: 'AUTO_TRANSFER',
      reason: 'REMOVED',
      ownership: 'COMPLETE',
      from: { id: ben.user.id },
      to: { id: ida.user.id },
    })
    expect(block!.names).toMatchObject({ from: { name: 'Ben Borrower' }, to: { name: 'Ida Admin' } })
    expect(blockHash(block!.content)).toBe(block!.hash)
    // Complete ownership means she may delete it (the old code left it partial: nobody could).
    expect((await call(ida, 'DELETE', `/api/items/${drill.id}`)).statusCode).toBe(200)
    expect((await call(ida, 'GET', `/api/blockchain/verify/${c.id}`)).json()).toMatchObject({
      valid: true,
      blockCount: 2,
    })
  })

  it('a member’s item borrowed by someone removed goes to the admin, partially (spec 001 §4)', async () => {
    const { ida, otto, ben, circle: c } = await circle()
    const ladder = await createItem(t, otto, c.id, 'Ladder')
    await handOver(t, otto, ben, ladder.id)
    await call(ida, 'DELETE', `/api/circles/${c.id}/users/${ben.user.id}`)
    expect((await call(ida, 'GET', `/api/items/${ladder.id}`)).json().item).toMatchObject({
      ownerId: ida.user.id,
      ownership: 'PARTIAL',
    })
  })

  it('the last complete holder by the ledger, not the creator, decides: the admin who was given it completely', async () => {
    const { ida, otto, ben, circle: c } = await circle()
    const saw = await createItem(t, otto, c.id, 'Saw')
    await handOver(t, otto, ida, saw.id, { completeOwnership: true })
    await handOver(t, ida, ben, saw.id)
    await call(ida, 'DELETE', `/api/circles/${c.id}/users/${ben.user.id}`)
    expect((await call(ida, 'GET', `/api/items/${saw.id}`)).json().item).toMatchObject({
      ownerId: ida.user.id,
      ownership: 'COMPLETE',
    })
  })

  it('when the complete holder left the circle, it goes to the admin, partially, and the block says Ben left', async () => {
    const { ida, otto, ben, circle: c } = await circle()
    const tent = await createItem(t, otto, c.id, 'Tent')
    await handOver(t, otto, ben, tent.id)
    expect((await post(otto, `/api/circles/${c.id}/leave`)).statusCode).toBe(200)
    expect((await post(ben, `/api/circles/${c.id}/leave`)).statusCode).toBe(200)
    expect((await call(ida, 'GET', `/api/items/${tent.id}`)).json().item).toMatchObject({
      ownerId: ida.user.id,
      ownership: 'PARTIAL',
    })
    const [block] = await blocksOf(ida, c.id)
    expect(block!.content).toMatchObject({
      v: 5,
      kind: 'AUTO_TRANSFER',
      reason: 'LEFT',
      ownership: 'PARTIAL',
    })
    const auto = (await feedOf(ida)).find((a) => a.type === 'AUTO_TRANSFER')
    expect(auto).toMatchObject({
      data: { reason: 'LEFT', sender: { name: 'Ben Borrower' } },
      title: 'Tent passed from Ben Borrower to Ida Admin when Ben Borrower left the circle',
    })
    // Leaving is not being removed: no removal entry in Ben's feed.
    expect((await feedOf(ben)).some((a) => a.type === 'REMOVED_FROM_CIRCLE')).toBe(false)
  })
})

describe('what the feed and the ledger say about a removal', () => {
  it('the transfer’s entry says the admin removed Ben, and Ben’s feed says he was removed', async () => {
    const { ida, otto, ben, circle: c } = await circle()
    const drill = await createItem(t, otto, c.id, 'Drill')
    await handOver(t, otto, ben, drill.id)
    await call(ida, 'DELETE', `/api/circles/${c.id}/users/${ben.user.id}`)
    const auto = (await feedOf(ida)).find((a) => a.type === 'AUTO_TRANSFER')
    expect(auto).toMatchObject({
      data: { reason: 'REMOVED', receiver: { name: 'Ida Admin' } },
      title:
        'Drill passed from Ben Borrower to Ida Admin when the admin removed Ben Borrower from the circle',
    })
    const removal = (await feedOf(ben)).find((a) => a.type === 'REMOVED_FROM_CIRCLE')
    expect(removal).toMatchObject({
      data: { circle: { id: c.id, name: 'Linden Street' }, admin: { name: 'Ida Admin' } },
      title: 'Ida Admin removed you from Linden Street',
    })
  })
})

describe('a former member', () => {
  it('is told they were removed, on the circle, its ledger, an item’s ledger and their own block', async () => {
    const { ida, otto, ben, circle: c } = await circle()
    const drill = await createItem(t, otto, c.id, 'Drill')
    const handover = await handOver(t, otto, ben, drill.id)
    const [own] = await blocksOf(ben, c.id)
    expect(own!.content.handoverId).toBe(handover.id)
    await call(ida, 'DELETE', `/api/circles/${c.id}/users/${ben.user.id}`)
    for (const url of [
      `/api/circles/${c.id}`,
      `/api/blockchain/circle/${c.id}`,
      `/api/blockchain/item/${drill.id}`,
      `/api/blockchain/${own!.id}`,
    ]) {
      const res = await call(ben, 'GET', url)
      expect(res.statusCode, url).toBe(403)
      expect(res.json(), url).toEqual({
        code: 'NO_LONGER_MEMBER',
        message: MESSAGES.removedFromCircle,
        key: 'removedFromCircle',
        reason: 'REMOVED',
        circle: { id: c.id, name: 'Linden Street' },
      })
    }
    // Nobody else learns anything: a stranger still gets the 404 of a circle that does not exist.
    const stranger = await signedIn(t)
    expect((await call(stranger, 'GET', `/api/circles/${c.id}`)).statusCode).toBe(404)
    expect((await call(stranger, 'GET', `/api/blockchain/${own!.id}`)).json().message).toBe(
      MESSAGES.blockNotFound,
    )
  })

  it('who left is told they left; joining again opens the circle again', async () => {
    const { ida, otto, circle: c } = await circle()
    await post(otto, `/api/circles/${c.id}/leave`)
    const res = await call(otto, 'GET', `/api/circles/${c.id}`)
    expect(res.statusCode).toBe(403)
    expect(res.json()).toMatchObject({
      code: 'NO_LONGER_MEMBER',
      reason: 'LEFT',
      message: MESSAGES.leftThisCircle,
    })
    await addMember(t, ida, c.id, otto)
    expect((await call(otto, 'GET', `/api/circles/${c.id}`)).statusCode).toBe(200)
  })
})

describe('blocks written before encoding v2', () => {
  it('keep verifying on the server, in the export and by content, beside the new v2 blocks', async () => {
    const { ida, otto, ben, circle: c } = await circle()
    // Two v1 blocks as the old code wrote them: rows without a reason, a head without frontier or
    // checkpoint (as before migration 0007), so the next append rebuilds the frontier from them.
    let prevHash = GENESIS_PREV_HASH
    const old: BlockContentV1[] = []
    for (const height of [0, 1]) {
      const content: BlockContentV1 = {
        v: 1,
        kind: height === 0 ? 'HANDOVER' : 'AUTO_TRANSFER',
        circle: { id: c.id, name: 'Linden Street' },
        height,
        prevHash,
        first: height === 0,
        time: `2026-11-20T10:00:0${height}.000Z`,
        handoverId: null,
        item: { id: '00000000-0000-4000-8000-00000000000' + height, name: `Old thing ${height}` },
        from: { id: otto.user.id, name: 'Otto Owner' },
        to: { id: ida.user.id, name: 'Ida Admin' },
        ownership: 'PARTIAL',
        commitments: { requesterComment: null, receiverComment: null, secretMessage: null },
      }
      const row = legacyBlockRow(content)
      await t.database.db.insert(blocks).values(row)
      const hash = row.hash
      old.push(content)
      prevHash = hash
    }
    await t.database.db.insert(ledgerHeads).values({ circleId: c.id, size: 2, headHash: prevHash })

    const drill = await createItem(t, otto, c.id, 'Drill')
    await handOver(t, otto, ben, drill.id)
    await call(ida, 'DELETE', `/api/circles/${c.id}/users/${ben.user.id}`)

    const chain = (await blocksOf(ida, c.id)).toReversed()
    expect(chain.map((b) => [b.content.v, b.content.kind])).toEqual([
      [1, 'HANDOVER'],
      [1, 'AUTO_TRANSFER'],
      [5, 'HANDOVER'],
      [5, 'AUTO_TRANSFER'],
    ])
    // The old blocks come back exactly as hashed (no reason field), so a browser recomputes them.
    expect(chain[0]!.content).toEqual(old[0])
    expect(chain[1]!.content).not.toHaveProperty('reason')
    for (const block of chain) expect(blockHash(block.content)).toBe(block.hash)
    expect(chain[2]!.content).toMatchObject({ reason: null })
    expect(chain[3]!.content).toMatchObject({ reason: 'REMOVED' })

    expect((await call(ida, 'GET', `/api/blockchain/verify/${c.id}`)).json()).toMatchObject({
      valid: true,
      blockCount: 4,
      failingBlocks: [],
    })
    const exported = (await call(ida, 'GET', `/api/ledger/${c.id}/export`)).body
    expect(verifyExport(exported)).toMatchObject({ valid: true, blockCount: 4, checkpoint: { size: 4 } })
    const leaf0 = JSON.parse(exported.split('\n')[1]!) as { leaf: string }
    expect(Buffer.from(leaf0.leaf, 'base64').equals(Buffer.from(blockBytes(old[0]!)))).toBe(true)

    // A v1 row whose stored fields were changed is still caught.
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`alter table blocks disable trigger blocks_append_only`)
      await tx.execute(sql`update blocks set item_name = 'x' where circle_id = ${c.id} and height = 1`)
      await tx.execute(sql`alter table blocks enable trigger blocks_append_only`)
    })
    const tampered = (await call(ida, 'GET', `/api/blockchain/verify/${c.id}`)).json()
    expect(tampered.failingBlocks.map((f: { index: number }) => f.index)).toEqual([1])
  })
})
