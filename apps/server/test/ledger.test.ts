import { randomUUID } from 'node:crypto'
import { type BlockContentV1, blockHash } from '@circles/ledger'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { blocks } from '../src/db/schema'
import { addMember, createCircle, type SignedIn, signedIn } from './support/circles'
import { answerHandover, createItem, handOver, pendingHandover } from './support/handovers'
import { createTestApp, type TestApp } from './support/test-app'

/** The row the server would store for this content. */
function rowOf(c: BlockContentV1, hash: string): typeof blocks.$inferInsert {
  return {
    circleId: c.circle.id,
    height: c.height,
    hash,
    prevHash: c.prevHash,
    version: c.v,
    kind: c.kind,
    first: c.first,
    time: c.time,
    circleName: c.circle.name,
    handoverId: c.handoverId,
    itemId: c.item.id,
    itemName: c.item.name,
    fromId: c.from.id,
    fromName: c.from.name,
    toId: c.to.id,
    toName: c.to.name,
    ownership: c.ownership,
    requesterCommentCommitment: c.commitments.requesterComment,
    receiverCommentCommitment: c.commitments.receiverComment,
    secretMessageCommitment: c.commitments.secretMessage,
  }
}

const get = (t: TestApp, who: SignedIn, url: string) =>
  t.app.inject({ method: 'GET', url, headers: who.auth })

/** A circle where Otto hands items to Rita, `count` times: a chain of `count` blocks. */
async function chainOf(t: TestApp, count: number) {
  const admin = await signedIn(t, { name: 'Ada Admin' })
  const owner = await signedIn(t, { name: 'Otto Owner' })
  const receiver = await signedIn(t, { name: 'Rita Receiver' })
  const circle = await createCircle(t, admin)
  await addMember(t, admin, circle.id, owner)
  await addMember(t, admin, circle.id, receiver)
  for (let i = 0; i < count; i += 1) {
    const item = await createItem(t, owner, circle.id, `Item ${i}`)
    await handOver(t, owner, receiver, item.id, { requesterComment: `note ${i}` })
  }
  return { admin, owner, receiver, circle }
}

describe('the ledger in the database', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ env: { PLAN_LIMITS: 'off' } })
  })
  afterAll(() => t.close())

  it('refuses UPDATE and DELETE on blocks', async () => {
    const { circle } = await chainOf(t, 1)
    const refusal = (statement: ReturnType<typeof sql>) =>
      t.database.db.execute(statement).then(
        () => 'accepted',
        (error: { cause?: Error }) => String(error.cause?.message),
      )
    expect(await refusal(sql`update blocks set item_name = 'Forged' where circle_id = ${circle.id}`)).toMatch(
      /append-only: UPDATE refused/,
    )
    expect(await refusal(sql`delete from blocks where circle_id = ${circle.id}`)).toMatch(
      /append-only: DELETE refused/,
    )
  })

  it('a chain verifies; a changed field, hash or link names exactly that block', async () => {
    const { admin, circle } = await chainOf(t, 4)
    const verify = () => get(t, admin, `/api/blockchain/verify/${circle.id}`).then((r) => r.json())
    expect(await verify()).toMatchObject({ valid: true, blockCount: 4, failingBlocks: [] })

    const rows = await t.database.db
      .select()
      .from(blocks)
      .where(sql`${blocks.circleId} = ${circle.id}`)
      .orderBy(blocks.height)
    const tamper = async (statement: ReturnType<typeof sql>) => {
      // As the tables' owner with the trigger off: what someone with the database could do.
      await t.database.db.transaction(async (tx) => {
        await tx.execute(sql`alter table blocks disable trigger blocks_append_only`)
        await tx.execute(statement)
        await tx.execute(sql`alter table blocks enable trigger blocks_append_only`)
      })
    }
    const changes = [
      sql`update blocks set to_name = 'Mallory' where id = ${rows[1]!.id}`,
      sql`update blocks set ownership = 'COMPLETE' where id = ${rows[2]!.id}`,
      sql`update blocks set time = '2020-01-01T00:00:00.000Z' where id = ${rows[3]!.id}`,
    ]
    for (const change of changes) await tamper(change)
    const result = await verify()
    expect(result.valid).toBe(false)
    expect(result.message).toMatch(/tampered/)
    expect(result.failingBlocks.map((b: { index: number }) => b.index)).toEqual([1, 2, 3])
    expect(result.failingBlocks[0]).toMatchObject({ id: rows[1]!.id, hash: rows[1]!.hash })
    // A v3 block (issue 24): its hash still matches its content; the kept name no longer opens its
    // commitment. The time of block 3 is hashed: its expected hash differs.
    expect(result.failingBlocks[0].expectedHash).toBe(rows[1]!.hash)
    expect(result.failingBlocks[2].expectedHash).not.toBe(rows[3]!.hash)
  })

  it('a rewritten hash breaks the link to the next block', async () => {
    const { admin, circle } = await chainOf(t, 3)
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`alter table blocks disable trigger blocks_append_only`)
      await tx.execute(
        sql`update blocks set hash = ${'f'.repeat(64)} where circle_id = ${circle.id} and height = 0`,
      )
      await tx.execute(sql`alter table blocks enable trigger blocks_append_only`)
    })
    const result = (await get(t, admin, `/api/blockchain/verify/${circle.id}`)).json()
    expect(result.failingBlocks.map((b: { index: number }) => b.index)).toEqual([0, 1])
  })

  it('verify reads a long chain a page at a time and finds a change deep in it', async () => {
    const { admin, circle } = await chainOf(t, 1)
    const rows = await syntheticChain(circle.id, 1, 4500)
    await t.database.db.insert(blocks).values(rows.slice(0, 3000))
    await t.database.db.insert(blocks).values(rows.slice(3000))
    expect((await get(t, admin, `/api/blockchain/verify/${circle.id}`)).json()).toMatchObject({
      valid: true,
      blockCount: 4501,
    })
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`alter table blocks disable trigger blocks_append_only`)
      await tx.execute(
        sql`update blocks set item_name = 'x' where circle_id = ${circle.id} and height = 4321`,
      )
      await tx.execute(sql`alter table blocks enable trigger blocks_append_only`)
    })
    const result = (await get(t, admin, `/api/blockchain/verify/${circle.id}`)).json()
    expect(result.failingBlocks.map((b: { index: number }) => b.index)).toEqual([4321])
  })

  /** Valid blocks `from`..`from+count-1` after the circle's existing head, as rows to insert. */
  async function syntheticChain(circleId: string, from: number, count: number) {
    const [head] = await t.database.db
      .select({ hash: blocks.hash, circleName: blocks.circleName })
      .from(blocks)
      .where(sql`${blocks.circleId} = ${circleId} and ${blocks.height} = ${from - 1}`)
    let prevHash = head!.hash
    const rows: (typeof blocks.$inferInsert)[] = []
    for (let height = from; height < from + count; height += 1) {
      const content: BlockContentV1 = {
        v: 1,
        kind: 'HANDOVER',
        circle: { id: circleId, name: head!.circleName },
        height,
        prevHash,
        first: false,
        time: new Date(Date.UTC(2026, 0, 1, 0, 0, height)).toISOString(),
        handoverId: randomUUID(),
        item: { id: randomUUID(), name: `Item ${height}` },
        from: { id: randomUUID(), name: 'Otto Owner' },
        to: { id: randomUUID(), name: 'Rita Receiver' },
        ownership: 'PARTIAL',
        commitments: { requesterComment: null, receiverComment: null, secretMessage: null },
      }
      const hash = blockHash(content)
      rows.push(rowOf(content, hash))
      prevHash = hash
    }
    return rows
  }
})

describe.runIf(process.env.DATABASE_URL)('concurrent confirmations on PostgreSQL', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ env: { PLAN_LIMITS: 'off', RATE_LIMITS: 'off' }, poolSize: 20 })
  })
  afterAll(() => t.close())

  it('16 workers x 40 confirmations in one circle give 640 blocks, heights 0-639, no fork, no gap', async () => {
    const admin = await signedIn(t, { name: 'Ada Admin' })
    const owner = await signedIn(t, { name: 'Otto Owner' })
    const circle = await createCircle(t, admin)
    await addMember(t, admin, circle.id, owner)
    const workers = await Promise.all(
      Array.from({ length: 16 }, (_, i) => signedIn(t, { name: `Worker ${i}` })),
    )
    for (const worker of workers) await addMember(t, admin, circle.id, worker)
    const queues = await Promise.all(
      workers.map(async (worker, w) => {
        const ids: string[] = []
        for (let i = 0; i < 40; i += 1) {
          const item = await createItem(t, owner, circle.id, `Item ${w}-${i}`)
          ids.push((await pendingHandover(t, owner, worker, item.id)).id)
        }
        return ids
      }),
    )
    await Promise.all(
      workers.map(async (worker, w) => {
        for (const id of queues[w]!) {
          const res = await answerHandover(t, worker, id, 'CONFIRMED')
          expect(res.statusCode).toBe(200)
        }
      }),
    )
    const rows = await t.database.db
      .select({ height: blocks.height, hash: blocks.hash, prevHash: blocks.prevHash })
      .from(blocks)
      .where(sql`${blocks.circleId} = ${circle.id}`)
      .orderBy(blocks.height)
    expect(rows.map((r) => r.height)).toEqual(Array.from({ length: 640 }, (_, i) => i))
    rows.forEach((row, i) => expect(row.prevHash).toBe(i === 0 ? '0'.repeat(64) : rows[i - 1]!.hash))
    const verify = (await get(t, admin, `/api/blockchain/verify/${circle.id}`)).json()
    expect(verify).toMatchObject({ valid: true, blockCount: 640 })
  }, 180_000)

  it('two confirmations of one handover at once give one block', async () => {
    const admin = await signedIn(t)
    const owner = await signedIn(t)
    const receiver = await signedIn(t)
    const circle = await createCircle(t, admin)
    await addMember(t, admin, circle.id, owner)
    await addMember(t, admin, circle.id, receiver)
    const item = await createItem(t, owner, circle.id)
    const pending = await pendingHandover(t, owner, receiver, item.id)
    const answers = await Promise.all([
      answerHandover(t, receiver, pending.id, 'CONFIRMED'),
      answerHandover(t, receiver, pending.id, 'CONFIRMED'),
    ])
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409])
    const count = await t.database.db.$count(blocks, sql`${blocks.circleId} = ${circle.id}`)
    expect(count).toBe(1)
  })

  it('a confirmation against a cancel or a removal ends in exactly one outcome', async () => {
    const admin = await signedIn(t)
    const owner = await signedIn(t)
    const receiver = await signedIn(t)
    const circle = await createCircle(t, admin)
    await addMember(t, admin, circle.id, owner)
    await addMember(t, admin, circle.id, receiver)
    const first = await createItem(t, owner, circle.id, 'First')
    const cancelled = await pendingHandover(t, owner, receiver, first.id)
    const [confirm, cancel] = await Promise.all([
      answerHandover(t, receiver, cancelled.id, 'CONFIRMED'),
      t.app.inject({ method: 'DELETE', url: `/api/handovers/${cancelled.id}`, headers: owner.auth }),
    ])
    expect([confirm.statusCode, cancel.statusCode].filter((s) => s === 200)).toHaveLength(1)
    const firstNow = (await get(t, owner, `/api/items/${first.id}`)).json().item
    expect(firstNow.ownerId).toBe(confirm.statusCode === 200 ? receiver.user.id : owner.user.id)

    const second = await createItem(t, owner, circle.id, 'Second')
    const raced = await pendingHandover(t, owner, receiver, second.id)
    const [answer] = await Promise.all([
      answerHandover(t, receiver, raced.id, 'CONFIRMED'),
      t.app.inject({
        method: 'DELETE',
        url: `/api/circles/${circle.id}/users/${receiver.user.id}`,
        headers: admin.auth,
      }),
    ])
    const secondNow = (await get(t, admin, `/api/items/${second.id}`)).json().item
    // Either the request was withdrawn (owner keeps it) or confirmed first, then the partial item
    // passed to the admin with an AUTO_TRANSFER block (docs/decisions/0027).
    expect(secondNow.ownerId).toBe(answer.statusCode === 200 ? admin.user.id : owner.user.id)
    const kinds = (await get(t, admin, `/api/blockchain/item/${second.id}`))
      .json()
      .blocks.map((b: { content: { kind: string } }) => b.content.kind)
    expect(kinds).toEqual(answer.statusCode === 200 ? ['AUTO_TRANSFER', 'HANDOVER'] : [])
    const verify = (await get(t, admin, `/api/blockchain/verify/${circle.id}`)).json()
    expect(verify.valid).toBe(true)
  })
})
