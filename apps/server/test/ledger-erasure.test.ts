// Issue 24 (docs/decisions/0034): a person who deletes their account is erased from every ledger
// block about them (v3: the name and salt kept beside the block; v1/v2: the name, redacted), and every
// ledger keeps verifying on the server, in the export and offline, while no ledger answer holds the name.
import {
  type BlockContentV1,
  type BlockContentV2,
  blockHash,
  GENESIS_PREV_HASH,
  verifyDataExport,
  verifyExport,
} from '@circles/ledger'
import type { TBlock } from '@circles/shared'
import { mkdtemp, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { strFromU8, unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main as ledgerCli } from '../../../packages/ledger/src/cli'
import { blocks, ledgerCheckpoints, ledgerHeads } from '../src/db/schema'
import { deleteCircleLedger, erasePersonFromLedger } from '../src/modules/ledger/ledger-erasure'
import { addMember, createCircle, type SignedIn, signedIn } from './support/circles'
import { createItem, handOver } from './support/handovers'
import { legacyBlockRow } from './support/legacy-blocks'
import { createTestApp, type TestApp } from './support/test-app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp({ env: { PLAN_LIMITS: 'off', RATE_LIMITS: 'off' } })
})
afterAll(() => t.close())

const get = (who: SignedIn, url: string) => t.app.inject({ method: 'GET', url, headers: who.auth })
const ERIKA = 'Erika Quistenbach'

/**
 * Ida's circle, whose ledger holds a v1 block (Erika to Otto) and a v2 block (Otto to Erika) as the
 * code before issues 23 and 24 wrote them, then v3 blocks of real handovers: Erika to Otto, Otto to
 * Erika, Otto to Ida.
 */
async function mixedChain() {
  const ida = await signedIn(t, { name: 'Ida Admin' })
  const otto = await signedIn(t, { name: 'Otto Owner' })
  const erika = await signedIn(t, { name: ERIKA })
  const c = await createCircle(t, ida, { name: 'Linden Street' })
  await addMember(t, ida, c.id, otto)
  await addMember(t, ida, c.id, erika)
  let prevHash = GENESIS_PREV_HASH
  const common = {
    circle: { id: c.id, name: 'Linden Street' },
    handoverId: null,
    ownership: 'PARTIAL' as const,
    commitments: { requesterComment: null, receiverComment: null, secretMessage: null },
  }
  const v1: BlockContentV1 = {
    ...common,
    v: 1,
    kind: 'HANDOVER',
    height: 0,
    prevHash,
    first: true,
    time: '2026-11-20T10:00:00.000Z',
    item: { id: randomUUID(), name: 'Old ladder' },
    from: { id: erika.user.id, name: ERIKA },
    to: { id: otto.user.id, name: 'Otto Owner' },
  }
  prevHash = blockHash(v1)
  const v2: BlockContentV2 = {
    ...common,
    v: 2,
    kind: 'AUTO_TRANSFER',
    reason: 'LEFT',
    height: 1,
    prevHash,
    first: false,
    time: '2026-11-21T10:00:00.000Z',
    item: { id: randomUUID(), name: 'Old tent' },
    from: { id: otto.user.id, name: 'Otto Owner' },
    to: { id: erika.user.id, name: ERIKA },
  }
  prevHash = blockHash(v2)
  for (const content of [v1, v2]) await t.database.db.insert(blocks).values(legacyBlockRow(content))
  // A head as the old code left it (no frontier or checkpoint): the next append rebuilds the tree.
  await t.database.db.insert(ledgerHeads).values({ circleId: c.id, size: 2, headHash: prevHash })
  const drill = await createItem(t, erika, c.id, 'Drill')
  await handOver(t, erika, otto, drill.id)
  const saw = await createItem(t, otto, c.id, 'Saw')
  await handOver(t, otto, erika, saw.id)
  const rake = await createItem(t, otto, c.id, 'Rake')
  await handOver(t, otto, ida, rake.id)
  return { ida, otto, erika, circle: c, itemIds: [v1.item.id, v2.item.id, drill.id, saw.id, rake.id] }
}

/** Every answer of the ledger routes a member of the circle can ask for. */
async function ledgerAnswers(who: SignedIn, circleId: string, itemIds: string[]) {
  const chain = (await get(who, `/api/blockchain/circle/${circleId}`)).json().blocks as TBlock[]
  const urls = [
    '/api/blockchain',
    `/api/blockchain/circle/${circleId}`,
    `/api/blockchain/verify/${circleId}`,
    ...itemIds.map((id) => `/api/blockchain/item/${id}`),
    ...chain.map((b) => `/api/blockchain/${b.id}`),
    `/api/ledger/${circleId}/export`,
    `/api/ledger/${circleId}/checkpoint`,
    `/api/ledger/${circleId}/proof/inclusion?index=0&size=${chain.length}`,
    `/api/ledger/${circleId}/proof/inclusions?indexes=0,1,2,3,4&size=${chain.length}`,
    `/api/ledger/${circleId}/proof/consistency?from=3&to=${chain.length}`,
  ]
  const answers: { url: string; status: number; body: string }[] = []
  for (const url of urls) {
    const res = await get(who, url)
    answers.push({ url, status: res.statusCode, body: res.body })
  }
  return answers
}

describe('erasing a person from the ledger', () => {
  it('the server writes v3 blocks: names beside the content, opening its commitments', async () => {
    const { ida, circle } = await mixedChain()
    const chain = (
      (await get(ida, `/api/blockchain/circle/${circle.id}`)).json().blocks as TBlock[]
    ).toReversed()
    // v3 since issue 24; v4 (v3's names as commitments, and loans) since issue 26.
    expect(chain.map((b) => b.content.v)).toEqual([1, 2, 5, 5, 5])
    const v3 = chain[2]!
    expect(v3.names).toMatchObject({ from: { name: ERIKA }, to: { name: 'Otto Owner' } })
    expect(v3.names.from.salt).toMatch(/^[0-9a-f]{32}$/)
    expect(JSON.stringify(v3.content)).not.toContain(ERIKA)
    expect(blockHash(v3.content as never)).toBe(v3.hash)
    expect(chain[0]!.names).toEqual({
      from: { name: ERIKA, salt: null },
      to: { name: 'Otto Owner', salt: null },
    })
    expect(chain.every((b) => b.redacted.length === 0)).toBe(true)
  })

  it('keeps every ledger verifying and no ledger answer holding the name', async () => {
    const { ida, otto, erika, circle, itemIds } = await mixedChain()
    const verify = () => get(ida, `/api/blockchain/verify/${circle.id}`).then((r) => r.json())
    expect(await verify()).toMatchObject({ valid: true, blockCount: 5, redactedBlocks: 0 })
    const before = (await get(ida, `/api/ledger/${circle.id}/checkpoint`)).json().checkpoint
    const hashesBefore = (
      await t.database.db.select().from(blocks).where(eq(blocks.circleId, circle.id))
    ).map((r) => r.hash)
    expect((await ledgerAnswers(ida, circle.id, itemIds)).some((a) => a.body.includes(ERIKA))).toBe(true)

    const count = await t.database.db.transaction((tx) => erasePersonFromLedger(tx, erika.user.id))
    expect(count).toBe(4)
    expect(await erasePersonFromLedger(t.database.db, erika.user.id)).toBe(0)

    // Verifies on the server, with the two blocks written before v3 counted as redacted.
    expect(await verify()).toEqual({
      valid: true,
      message: 'The ledger is intact: every block checks out.',
      blockCount: 5,
      failingBlocks: [],
      redactedBlocks: 2,
      failingPhotos: [],
      treeMatchesCheckpoint: true,
    })
    // Nothing that is hashed or signed changed: hashes, the newest checkpoint.
    const rows = await t.database.db.select().from(blocks).where(eq(blocks.circleId, circle.id))
    expect(rows.map((r) => r.hash)).toEqual(hashesBefore)
    expect((await get(ida, `/api/ledger/${circle.id}/checkpoint`)).json().checkpoint).toBe(before)
    expect(rows.filter((r) => r.fromId === erika.user.id || r.toId === erika.user.id)).toHaveLength(4)
    for (const row of rows) {
      expect(JSON.stringify(row)).not.toContain(ERIKA)
      if (row.fromId === erika.user.id) expect([row.fromName, row.fromNameSalt]).toEqual([null, null])
      if (row.toId === erika.user.id) expect([row.toName, row.toNameSalt]).toEqual([null, null])
    }

    // No answer of the ledger routes holds her name, for any member.
    for (const who of [ida, otto]) {
      for (const answer of await ledgerAnswers(who, circle.id, itemIds)) {
        expect(answer.status, answer.url).toBe(200)
        expect(answer.body, answer.url).not.toContain(ERIKA)
        expect(answer.body, answer.url).not.toContain('Quistenbach')
      }
    }
    // Otto's "Download my data": the redacted block about him comes without its bytes, checked by its
    // place in the signed log; its ledger part names her nowhere (her account is not deleted here, so
    // the handovers part still does: account-deletion.test.ts searches a whole file after a deletion).
    const zip = await get(otto, '/api/users/me/export')
    expect(zip.statusCode).toBe(200)
    const data = strFromU8(unzipSync(new Uint8Array(zip.rawPayload))['circles-data.json']!)
    expect(JSON.stringify(JSON.parse(data).ledger)).not.toContain(ERIKA)
    expect(verifyDataExport(data)).toMatchObject({ valid: true, problems: [] })
    expect(verifyDataExport(data).redactedBlocks).toBeGreaterThanOrEqual(1)
    const chain = (
      (await get(ida, `/api/blockchain/circle/${circle.id}`)).json().blocks as TBlock[]
    ).toReversed()
    expect(chain.map((b) => b.redacted)).toEqual([['from'], ['to'], [], [], []])
    expect(chain[0]!.content).toMatchObject({ v: 1, from: { id: erika.user.id, name: null } })
    expect(chain[0]!.names.from).toEqual({ name: null, salt: null })
    expect(chain[2]!.names).toEqual({
      from: { name: null, salt: null },
      to: expect.objectContaining({ name: 'Otto Owner' }),
    })
    expect(chain[4]!.names.to.name).toBe('Ida Admin')

    // The export verifies offline, in the function and with circles-ledger.
    const exported = (await get(otto, `/api/ledger/${circle.id}/export`)).body
    expect(verifyExport(exported)).toMatchObject({
      valid: true,
      blockCount: 5,
      redactedBlocks: 2,
      problems: [],
    })
    const dir = await mkdtemp(path.join(os.tmpdir(), 'circles-erasure-'))
    await writeFile(path.join(dir, 'export.jsonl'), exported)
    const keys = (await t.app.inject({ method: 'GET', url: '/api/ledger/keys' })).json().keys as string[]
    let printed = ''
    const file = path.join(dir, 'export.jsonl')
    const code = await ledgerCli(['verify', file, '--key', keys[0]!], (text) => (printed += text))
    expect(code).toBe(0)
    expect(JSON.parse(printed)).toMatchObject({ valid: true, blockCount: 5, redactedBlocks: 2 })
    // A checkpoint a device remembered before the erasure still holds.
    await writeFile(path.join(dir, 'seen.txt'), before)
    printed = ''
    expect(
      await ledgerCli(
        ['verify', path.join(dir, 'export.jsonl'), '--trusted', path.join(dir, 'seen.txt')],
        (x) => (printed += x),
      ),
    ).toBe(0)
  })

  it('still catches tampering after the erasure: a redacted block’s link, a wrong name beside a v3 block', async () => {
    const { ida, erika, circle } = await mixedChain()
    await erasePersonFromLedger(t.database.db, erika.user.id)
    const tamper = async (statement: ReturnType<typeof sql>) =>
      t.database.db.transaction(async (tx) => {
        await tx.execute(sql`alter table blocks disable trigger blocks_append_only`)
        await tx.execute(statement)
        await tx.execute(sql`alter table blocks enable trigger blocks_append_only`)
      })
    await tamper(
      sql`update blocks set prev_hash = ${'e'.repeat(64)} where circle_id = ${circle.id} and height = 1`,
    )
    await tamper(sql`update blocks set to_name = 'Mallory' where circle_id = ${circle.id} and height = 3`)
    const result = (await get(ida, `/api/blockchain/verify/${circle.id}`)).json()
    expect(result.valid).toBe(false)
    expect(result.failingBlocks.map((f: { index: number }) => f.index)).toEqual([1, 3])
    expect(result.redactedBlocks).toBe(2)
  })

  it('the trigger allows only names and salts set to NULL, and a circle’s ledger deleted only when named', async () => {
    const { erika, otto, circle } = await mixedChain()
    const other = await mixedChain()
    const refusal = (statement: ReturnType<typeof sql>) =>
      t.database.db.execute(statement).then(
        () => 'accepted',
        (error: { cause?: Error }) => String(error.cause?.message),
      )
    const refused = [
      sql`update blocks set from_name = 'Someone else' where circle_id = ${circle.id} and height = 2`,
      sql`update blocks set to_name_salt = ${'ab'.repeat(16)} where circle_id = ${circle.id} and height = 2`,
      sql`update blocks set item_name = 'Forged' where circle_id = ${circle.id}`,
      sql`update blocks set from_name = null, item_name = 'Forged' where circle_id = ${circle.id}`,
      sql`update blocks set from_name_commitment = null where circle_id = ${circle.id} and height = 2`,
      sql`update blocks set hash = ${'f'.repeat(64)} where circle_id = ${circle.id} and height = 4`,
      sql`update blocks set from_id = ${otto.user.id} where circle_id = ${circle.id} and height = 2`,
    ]
    for (const statement of refused) expect(await refusal(statement)).toMatch(/append-only: UPDATE refused/)
    expect(await refusal(sql`delete from blocks where circle_id = ${circle.id}`)).toMatch(
      /append-only: DELETE refused/,
    )
    // Naming another circle does not open this one.
    expect(
      await t.database.db
        .transaction(async (tx) => {
          await tx.execute(sql`select set_config('circles.delete_circle_ledger', ${other.circle.id}, true)`)
          await tx.execute(sql`delete from blocks where circle_id = ${circle.id}`)
        })
        .then(
          () => 'accepted',
          (error: { cause?: Error }) => String(error.cause?.message),
        ),
    ).toMatch(/append-only: DELETE refused/)
    // Erasing (to NULL) is allowed; setting a name back is not.
    expect(
      await refusal(
        sql`update blocks set from_name = null, from_name_salt = null where from_id = ${erika.user.id}`,
      ),
    ).toBe('accepted')
    expect(
      await refusal(
        sql`update blocks set from_name = ${ERIKA} where from_id = ${erika.user.id} and circle_id = ${circle.id}`,
      ),
    ).toMatch(/UPDATE refused/)

    // The closed circle's ledger goes; the other circle's stays and verifies.
    await t.database.db.transaction((tx) => deleteCircleLedger(tx, circle.id))
    expect(await t.database.db.$count(blocks, eq(blocks.circleId, circle.id))).toBe(0)
    expect(await t.database.db.$count(ledgerCheckpoints, eq(ledgerCheckpoints.circleId, circle.id))).toBe(0)
    expect(await t.database.db.$count(ledgerHeads, eq(ledgerHeads.circleId, circle.id))).toBe(0)
    expect(await t.database.db.$count(blocks, eq(blocks.circleId, other.circle.id))).toBe(5)
    // The setting was local to that transaction: later deletes are refused again.
    expect(await refusal(sql`delete from blocks where circle_id = ${other.circle.id}`)).toMatch(
      /DELETE refused/,
    )
    expect((await get(other.ida, `/api/blockchain/verify/${other.circle.id}`)).json()).toMatchObject({
      valid: true,
      blockCount: 5,
    })
  })
})
