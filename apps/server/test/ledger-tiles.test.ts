// Issue 29 (C2SP tlog-tiles): each circle's Merkle tree is kept as tiles written by every append, served
// to members, and the proofs are built from them; verify holds the leaves against the signed root.
import {
  blockHash,
  consistencyProof,
  fullTileHash,
  GENESIS_PREV_HASH,
  inclusionProof,
  leafHash,
  readEntryBundle,
  tileBytes,
} from '@circles/ledger'
import { MESSAGES, type TBlock } from '@circles/shared'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { blocks, ledgerHeads, ledgerTiles } from '../src/db/schema'
import { addMember, createCircle, type SignedIn, signedIn } from './support/circles'
import { createItem, handOver } from './support/handovers'
import { legacyBlockRow, legacyHandover } from './support/legacy-blocks'
import { createTestApp, type TestApp } from './support/test-app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const get = (who: SignedIn | null, url: string) =>
  t.app.inject({ method: 'GET', url, headers: who?.auth ?? {} })
const fromHex = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'))
const hex = (hashes: Uint8Array[]) => hashes.map((h) => Buffer.from(h).toString('hex'))

async function circleWith(n: number) {
  const ida = await signedIn(t, { name: 'Ida' })
  const ben = await signedIn(t, { name: 'Ben' })
  const circle = await createCircle(t, ida)
  await addMember(t, ida, circle.id, ben)
  for (let i = 0; i < n; i++)
    await handOver(t, ida, ben, (await createItem(t, ida, circle.id, `Thing ${i}`)).id)
  return { ida, ben, circle }
}

/** The circle's leaf hashes in height order, as its members are shown them. */
async function leavesOf(who: SignedIn, circleId: string) {
  const chain = (await get(who, `/api/blockchain/circle/${circleId}`)).json().blocks as TBlock[]
  return chain.sort((a, b) => a.content.height - b.content.height).map((b) => fromHex(b.hash))
}

describe('tiles', () => {
  it('are served to members as the tree has them, immutable, and to nobody else', async () => {
    const { ida, ben, circle } = await circleWith(3)
    const leaves = await leavesOf(ida, circle.id)
    const tile = (path: string, who: SignedIn | null = ben) =>
      get(who, `/api/ledger/${circle.id}/tile/${path}`)
    const three = await tile('0/000.p/3')
    expect(three.statusCode).toBe(200)
    expect(three.headers['content-type']).toBe('application/octet-stream')
    expect(three.headers['cache-control']).toBe('private, max-age=31536000, immutable')
    expect(three.rawPayload.equals(Buffer.concat(leaves))).toBe(true)
    // A narrower tile of an earlier size is the same bytes' start.
    expect((await tile('0/000.p/2')).rawPayload.equals(Buffer.concat(leaves.slice(0, 2)))).toBe(true)
    // Beyond the tree and anything that is not a tile path: 404.
    for (const beyond of ['0/000.p/4', '0/000', '1/000.p/1', '0/001.p/1', 'entries/000.p/4', '0/3', 'x']) {
      const res = await tile(beyond)
      expect([beyond, res.statusCode, res.json().message]).toEqual([beyond, 404, MESSAGES.ledgerNoSuchTile])
    }
    const outsider = await signedIn(t)
    expect((await tile('0/000.p/3', outsider)).statusCode).toBe(404)
    expect((await tile('0/000.p/3', null)).statusCode).toBe(401)
  })

  it('a log appended to before tiles existed gets them once; appends keep them; proofs come from them', async () => {
    const { ida, ben, circle } = await circleWith(0)
    // 511 blocks written as the release before tiles wrote them: no tiles, no frontier.
    const leaves: Uint8Array[] = []
    let prevHash = GENESIS_PREV_HASH
    const rows = []
    const people = { from: { id: ida.user.id, name: 'Ida' }, to: { id: ben.user.id, name: 'Ben' } }
    for (let height = 0; height < 511; height++) {
      const content = legacyHandover(circle, height, prevHash, people, '00000000-0000-4000-8000-000000000001')
      const row = legacyBlockRow(content)
      leaves.push(fromHex(row.hash))
      rows.push(row)
      const hash = row.hash
      prevHash = hash
    }
    await t.database.db.insert(blocks).values(rows)
    await t.database.db.insert(ledgerHeads).values({ circleId: circle.id, size: 511, headHash: prevHash })

    // A tile read builds them, once.
    const first = await get(ben, `/api/ledger/${circle.id}/tile/0/000`)
    expect(first.statusCode).toBe(200)
    expect(first.rawPayload.equals(Buffer.from(tileBytes(leaves, { level: 0, index: 0, width: 256 })))).toBe(
      true,
    )
    const [head] = await t.database.db.select().from(ledgerHeads).where(eq(ledgerHeads.circleId, circle.id))
    expect(head!.tiledSize).toBe(511)

    // The next append adds its leaf to the tiles in its transaction; it fills the second tile, whose
    // hash goes into the level above.
    const appended = await handOver(t, ida, ben, (await createItem(t, ida, circle.id, 'New thing')).id)
    leaves.push(fromHex(appended.block!.hash))
    expect(leaves).toHaveLength(512)
    const stored = await t.database.db
      .select({
        level: ledgerTiles.level,
        idx: ledgerTiles.idx,
        bytes: sql<number>`length(${ledgerTiles.data})`,
      })
      .from(ledgerTiles)
      .where(eq(ledgerTiles.circleId, circle.id))
    expect(stored.map((r) => [r.level, r.idx, r.bytes]).sort()).toEqual([
      [0, 0, 256 * 32],
      [0, 1, 256 * 32],
      [1, 0, 64],
    ])
    const level1 = await get(ben, `/api/ledger/${circle.id}/tile/1/000.p/2`)
    expect(level1.rawPayload.equals(Buffer.from(tileBytes(leaves, { level: 1, index: 0, width: 2 })))).toBe(
      true,
    )
    expect(level1.rawPayload.subarray(32)).toEqual(
      Buffer.from(fullTileHash(tileBytes(leaves, { level: 0, index: 1, width: 256 }))),
    )
    const second = await get(ben, `/api/ledger/${circle.id}/tile/0/001`)
    expect(second.rawPayload.equals(Buffer.concat(leaves.slice(256)))).toBe(true)

    // The proofs are the RFC 6962 proofs of those leaves.
    const inclusion = (await get(ben, `/api/ledger/${circle.id}/proof/inclusion?index=7&size=512`)).json()
    expect(inclusion.leafHash).toBe(hex([leaves[7]!])[0])
    expect(inclusion.proof).toEqual(hex(inclusionProof(7, leaves)))
    const batch = (
      await get(ben, `/api/ledger/${circle.id}/proof/inclusions?indexes=0,299,511&size=512`)
    ).json()
    expect(batch.proofs.map((p: { proof: string[] }) => p.proof)).toEqual(
      [0, 299, 511].map((i) => hex(inclusionProof(i, leaves))),
    )
    const consistency = (await get(ben, `/api/ledger/${circle.id}/proof/consistency?from=100&to=512`)).json()
    expect(consistency.proof).toEqual(hex(consistencyProof(100, leaves)))
    // And verify holds the stored leaves against the newest signed root.
    expect((await get(ben, `/api/blockchain/verify/${circle.id}`)).json()).toMatchObject({
      valid: true,
      blockCount: 512,
      treeMatchesCheckpoint: true,
    })
  })

  it('verify reports a block rewritten with every hash recomputed, but not signed again', async () => {
    const { ida, circle } = await circleWith(3)
    const verify = async () => (await get(ida, `/api/blockchain/verify/${circle.id}`)).json()
    expect(await verify()).toMatchObject({ valid: true, treeMatchesCheckpoint: true })
    // The operator rewrites the last block's item name and recomputes its hash: the chain links hold.
    const chain = (await get(ida, `/api/blockchain/circle/${circle.id}`)).json().blocks as TBlock[]
    const last = chain.find((b) => b.content.height === 2)!
    const rewritten = { ...last.content, item: { ...last.content.item, name: 'Something else' } }
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`alter table blocks disable trigger blocks_append_only`)
      await tx
        .update(blocks)
        .set({ itemName: 'Something else', hash: blockHash(rewritten) })
        .where(eq(blocks.id, last.id))
      await tx.execute(sql`alter table blocks enable trigger blocks_append_only`)
    })
    const result = await verify()
    expect(result).toMatchObject({
      valid: false,
      message: MESSAGES.ledgerCompromised,
      failingBlocks: [],
      treeMatchesCheckpoint: false,
    })
  })
})

describe('entry bundles', () => {
  it('hold each block’s leaf bytes, hashing to the level-0 tile’s leaves; a redacted block’s entry is empty', async () => {
    const { ida, ben, circle } = await circleWith(0)
    // Three blocks of a release before v3; the second's receiver was erased (issue 24): no bytes left.
    const rows = []
    let prevHash = GENESIS_PREV_HASH
    const people = { from: { id: ida.user.id, name: 'Ida' }, to: { id: ben.user.id, name: 'Ben' } }
    for (let height = 0; height < 3; height++) {
      const content = legacyHandover(circle, height, prevHash, people, '00000000-0000-4000-8000-000000000002')
      const row = legacyBlockRow(content)
      rows.push(height === 1 ? { ...row, toName: null } : row)
      prevHash = row.hash
    }
    await t.database.db.insert(blocks).values(rows)
    await t.database.db.insert(ledgerHeads).values({ circleId: circle.id, size: 3, headHash: prevHash })
    await handOver(t, ida, ben, (await createItem(t, ida, circle.id, 'New thing')).id)

    const bundle = (path: string, who: SignedIn | null = ben) =>
      get(who, `/api/ledger/${circle.id}/tile/entries/${path}`)
    const four = await bundle('000.p/4')
    expect(four.statusCode).toBe(200)
    expect(four.headers['content-type']).toBe('application/octet-stream')
    expect(four.headers['cache-control']).toBe('private, max-age=31536000, immutable')
    const entries = readEntryBundle(new Uint8Array(four.rawPayload))!
    expect(entries).toHaveLength(4)
    const tile = (await get(ben, `/api/ledger/${circle.id}/tile/0/000.p/4`)).rawPayload
    entries.forEach((entry, i) => {
      const leaf = Buffer.from(tile.subarray(i * 32, (i + 1) * 32))
      if (i === 1) expect(entry).toHaveLength(0)
      else expect(Buffer.from(leafHash(entry)).equals(leaf)).toBe(true)
    })
    // A narrower bundle of an earlier size is the same bytes' start.
    const two = (await bundle('000.p/2')).rawPayload
    expect(four.rawPayload.subarray(0, two.length).equals(two)).toBe(true)

    for (const beyond of ['000.p/5', '000', '001.p/1', '000.p/0', '0', 'x/y']) {
      const res = await bundle(beyond)
      expect([beyond, res.statusCode, res.json().message]).toEqual([beyond, 404, MESSAGES.ledgerNoSuchTile])
    }
    expect((await bundle('000.p/4', await signedIn(t))).statusCode).toBe(404)
    expect((await bundle('000.p/4', null)).statusCode).toBe(401)
  })
})
