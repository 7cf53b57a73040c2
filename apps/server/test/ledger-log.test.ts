import {
  consistencyProof,
  leafHash,
  openCheckpoint,
  parseVerifierKey,
  rootHash,
  verifyConsistency,
  verifyInclusion,
} from '@circles/ledger'
import { mkdtemp, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MESSAGES } from '@circles/shared'
import { main } from '../../../packages/ledger/src/cli'
import { ledgerHeads } from '../src/db/schema'
import { RATE_RULES } from '../src/lib/rate-limits'
import { type SignedIn, addMember, createCircle, signedIn } from './support/circles'
import { answerHandover, createItem, handOver, pendingHandover } from './support/handovers'
import { type TestApp, createTestApp } from './support/test-app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const fromHex = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'))
const get = (who: SignedIn | null, url: string) =>
  t.app.inject({ method: 'GET', url: `/api/ledger${url}`, headers: who?.auth ?? {} })

async function keys() {
  const res = await get(null, '/keys')
  expect(res.statusCode).toBe(200)
  return (res.json().keys as string[]).map(parseVerifierKey)
}

/** A circle with `n` confirmed handovers, and its members. */
async function circleWith(n: number) {
  const ida = await signedIn(t, { name: 'Ida' })
  const ben = await signedIn(t, { name: 'Ben' })
  const circle = await createCircle(t, ida)
  await addMember(t, ida, circle.id, ben)
  for (let i = 0; i < n; i++) {
    const item = await createItem(t, ida, circle.id, `Thing ${i}`)
    await handOver(t, ida, ben, item.id, { secretMessage: `secret ${i}`, requesterComment: `comment ${i}` })
  }
  return { ida, ben, circle }
}

async function exported(who: SignedIn, circleId: string) {
  const res = await get(who, `/${circleId}/export`)
  expect(res.statusCode).toBe(200)
  expect(res.headers['content-type']).toContain('application/x-ndjson')
  return {
    raw: res.body,
    lines: res.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line)),
  }
}

describe('the verifiable ledger log', () => {
  it('publishes its key and signs a checkpoint over the Merkle root of the blocks', async () => {
    const known = await keys()
    const { ida, circle } = await circleWith(5)
    const res = await get(ida, `/${circle.id}/checkpoint`)
    expect(res.statusCode).toBe(200)
    const { checkpoint } = openCheckpoint(res.json().checkpoint, known, `localhost:3000/circle/${circle.id}`)
    expect(checkpoint.size).toBe(5)
    const { lines } = await exported(ida, circle.id)
    const blocks = lines.filter((l) => l.type === 'block')
    expect(blocks.map((b) => b.height)).toEqual([0, 1, 2, 3, 4])
    for (const b of blocks) {
      expect(Buffer.from(leafHash(Buffer.from(b.leaf, 'base64'))).toString('hex')).toBe(b.hash)
    }
    expect(Buffer.from(checkpoint.rootHash).toString('hex')).toBe(
      Buffer.from(rootHash(blocks.map((b) => fromHex(b.hash)))).toString('hex'),
    )
    expect(lines[0]).toMatchObject({ type: 'log', origin: `localhost:3000/circle/${circle.id}` })
    expect(lines.filter((l) => l.type === 'checkpoint').map((l) => l.size)).toEqual([1, 2, 3, 4, 5])
  })

  it('answers inclusion and consistency proofs that verify against the signed roots', async () => {
    const known = await keys()
    const { ben, circle } = await circleWith(6)
    const rootOf = (note: string) => openCheckpoint(note, known).checkpoint.rootHash
    for (let size = 1; size <= 6; size++) {
      for (let index = 0; index < size; index++) {
        const p = (await get(ben, `/${circle.id}/proof/inclusion?index=${index}&size=${size}`)).json()
        expect(
          verifyInclusion(index, size, fromHex(p.leafHash), p.proof.map(fromHex), rootOf(p.checkpoint)),
        ).toBe(true)
        expect(p.proof.length).toBeLessThanOrEqual(Math.ceil(Math.log2(size)))
      }
    }
    for (let from = 1; from <= 6; from++) {
      const c = (await get(ben, `/${circle.id}/proof/consistency?from=${from}&to=6`)).json()
      const older = (await get(ben, `/${circle.id}/proof/inclusion?index=0&size=${from}`)).json()
      expect(
        verifyConsistency(from, 6, rootOf(older.checkpoint), rootOf(c.checkpoint), c.proof.map(fromHex)),
      ).toBe(true)
    }
  })

  it('answers many audit paths of one tree at once, each verifying against its signed root', async () => {
    const known = await keys()
    const { ben, circle } = await circleWith(7)
    const res = await get(ben, `/${circle.id}/proof/inclusions?size=6&indexes=5,0,3,3`)
    expect(res.statusCode).toBe(200)
    const batch = res.json()
    const { rootHash: root, size } = openCheckpoint(batch.checkpoint, known).checkpoint
    expect(size).toBe(6)
    expect(batch.proofs.map((p: { index: number }) => p.index)).toEqual([5, 0, 3])
    for (const p of batch.proofs) {
      const single = (await get(ben, `/${circle.id}/proof/inclusion?index=${p.index}&size=6`)).json()
      expect(p.proof).toEqual(single.proof)
      expect(verifyInclusion(p.index, 6, fromHex(p.leafHash), p.proof.map(fromHex), root)).toBe(true)
    }
    for (const bad of ['size=6&indexes=6', 'size=8&indexes=0', 'size=6&indexes=', 'size=6&indexes=1,,2']) {
      expect((await get(ben, `/${circle.id}/proof/inclusions?${bad}`)).statusCode, bad).toBe(400)
    }
    const tooMany = Array.from({ length: 501 }, () => 0).join(',')
    expect((await get(ben, `/${circle.id}/proof/inclusions?size=6&indexes=${tooMany}`)).statusCode).toBe(400)
  })

  it("answers a confirmation with the block's inclusion in the newly signed checkpoint", async () => {
    const known = await keys()
    const { ida, ben, circle } = await circleWith(4)
    const item = await createItem(t, ida, circle.id, 'Ladder')
    const pending = await pendingHandover(t, ida, ben, item.id)
    const res = await answerHandover(t, ben, pending.id, 'CONFIRMED')
    expect(res.statusCode).toBe(200)
    const { receipt } = res.json()
    const { checkpoint } = openCheckpoint(receipt.checkpoint, known, `localhost:3000/circle/${circle.id}`)
    expect([receipt.index, receipt.size, checkpoint.size]).toEqual([4, 5, 5])
    expect(
      verifyInclusion(4, 5, fromHex(receipt.leafHash), receipt.proof.map(fromHex), checkpoint.rootHash),
    ).toBe(true)
    expect((await get(ida, `/${circle.id}/checkpoint`)).json().checkpoint).toBe(receipt.checkpoint)
    const block = await t.app.inject({ url: `/api/blockchain/${receipt.blockId}`, headers: ben.auth })
    expect(block.json().block.hash).toBe(receipt.leafHash)
    // A rejection appends nothing and carries no receipt.
    const other = await createItem(t, ida, circle.id, 'Saw')
    const rejected = await answerHandover(
      t,
      ben,
      (await pendingHandover(t, ida, ben, other.id)).id,
      'REJECTED',
    )
    expect(rejected.json().receipt).toBeUndefined()
  })

  it('keeps to members, refuses sizes outside the log, and exports no comment or secret', async () => {
    const { ida, circle } = await circleWith(2)
    const outsider = await signedIn(t)
    for (const url of [
      '/checkpoint',
      '/proof/inclusion?index=0&size=1',
      '/proof/consistency?from=1&to=2',
      '/export',
    ]) {
      expect((await get(outsider, `/${circle.id}${url}`)).statusCode).toBe(404)
      expect((await get(null, `/${circle.id}${url}`)).statusCode).toBe(401)
    }
    for (const url of [
      '/proof/inclusion?index=2&size=2',
      '/proof/inclusion?index=0&size=3',
      '/proof/consistency?from=2&to=1',
      '/proof/inclusion?index=x&size=1',
    ]) {
      expect((await get(ida, `/${circle.id}${url}`)).statusCode, url).toBe(400)
    }
    const { raw } = await exported(ida, circle.id)
    expect(raw).not.toMatch(/secret \d|comment \d/)
  })

  it('rebuilds a missing frontier from the blocks, and signs an empty log on request', async () => {
    const known = await keys()
    const { ida, ben, circle } = await circleWith(3)
    await t.database.db.update(ledgerHeads).set({ frontier: [] }).where(eq(ledgerHeads.circleId, circle.id))
    const item = await createItem(t, ida, circle.id, 'After')
    await handOver(t, ida, ben, item.id)
    const { lines } = await exported(ida, circle.id)
    const leaves = lines.filter((l) => l.type === 'block').map((b) => fromHex(b.hash))
    const note = (await get(ida, `/${circle.id}/checkpoint`)).json().checkpoint
    expect(openCheckpoint(note, known).checkpoint.rootHash).toEqual(rootHash(leaves))
    expect(consistencyProof(3, leaves).length).toBeGreaterThan(0)

    const empty = await createCircle(t, ida)
    const emptyNote = (await get(ida, `/${empty.id}/checkpoint`)).json().checkpoint
    expect(openCheckpoint(emptyNote, known).checkpoint.size).toBe(0)
  })

  it('passes the command-line verifier with the published key; a tampered copy fails it', async () => {
    const { ida, circle } = await circleWith(3)
    const { raw } = await exported(ida, circle.id)
    const [key] = (await get(null, '/keys')).json().keys as string[]
    const dir = await mkdtemp(path.join(os.tmpdir(), 'circles-export-'))
    await writeFile(path.join(dir, 'export.jsonl'), raw)
    // Someone edits a block's content in the file: the item's name in its leaf bytes.
    const tampered = raw
      .trim()
      .split('\n')
      .map((line) => {
        const entry = JSON.parse(line)
        if (entry.type !== 'block' || entry.height !== 1) return line
        const leaf = Buffer.from(entry.leaf, 'base64').toString().replace('Thing 1', 'Thing 9')
        return JSON.stringify({ ...entry, leaf: Buffer.from(leaf).toString('base64') })
      })
      .join('\n')
    expect(tampered).not.toBe(raw.trim())
    await writeFile(path.join(dir, 'tampered.jsonl'), tampered)
    const quiet = () => {}
    expect(await main(['verify', path.join(dir, 'export.jsonl'), '--key', key!], quiet)).toBe(0)
    expect(await main(['verify', path.join(dir, 'tampered.jsonl'), '--key', key!], quiet)).toBe(1)
  })

  it('counts the calls that read a whole log per account: over the hourly limit they answer 429', async () => {
    const { ida, ben, circle } = await circleWith(1)
    const { points } = RATE_RULES.ledgerLogReadsPerAccount
    // Cheap ones here (a log of one block); each counts as any whole-log read does.
    for (let i = 0; i < points; i++) {
      const call = i % 2 === 0 ? `/api/ledger/${circle.id}/export` : `/api/blockchain/verify/${circle.id}`
      expect((await t.app.inject({ method: 'GET', url: call, headers: ida.auth })).statusCode).toBe(200)
    }
    const refused = await get(ida, `/${circle.id}/export`)
    expect(refused.statusCode).toBe(429)
    expect(refused.json().message).toBe(MESSAGES.tooManyRequests)
    const verify = await t.app.inject({
      method: 'GET',
      url: `/api/blockchain/verify/${circle.id}`,
      headers: ida.auth,
    })
    expect(verify.statusCode).toBe(429)
    // Issue 29: proofs come from tiles, O(log n) reads: not rationed. Another member is not held back.
    expect((await get(ida, `/${circle.id}/proof/inclusion?index=0&size=1`)).statusCode).toBe(200)
    expect((await get(ida, `/${circle.id}/proof/consistency?from=1&to=1`)).statusCode).toBe(200)
    expect((await get(ben, `/${circle.id}/export`)).statusCode).toBe(200)
    expect((await get(ida, `/${circle.id}/checkpoint`)).statusCode).toBe(200)
  }, 120_000) // 600 calls: about 12 s alone, more beside the other suites

  it('publishes earlier keys too, so checkpoints signed before a rotation still verify', async () => {
    const [current] = (await get(null, '/keys')).json().keys as string[]
    const rotated = await createTestApp({ env: { LEDGER_PREVIOUS_KEYS: current! } })
    try {
      const published = (await rotated.app.inject({ method: 'GET', url: '/api/ledger/keys' })).json().keys
      expect(published).toHaveLength(2)
      expect(published[0]).not.toBe(current)
      expect(published[1]).toBe(current)
    } finally {
      await rotated.close()
    }
  })
})
