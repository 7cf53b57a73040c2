// Issue 28 (docs/decisions/0057): condition photos and notes at both ends of a handover, committed in
// the v5 block the confirmation appends; the photos served are checked against the block by verify.
import { createHash } from 'node:crypto'
import { readdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { blockHash, findPhoto, noteCommitment, verifyExport, type BlockContentV5 } from '@circles/ledger'
import { MESSAGES, type TBlock, type TConditionPhoto, type THandover } from '@circles/shared'
import { eq, sql } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conditionPhotos, storedFiles } from '../src/db/schema'
import { addMember, createCircle, type SignedIn, signedIn } from './support/circles'
import { answerHandover, createItem, requestHandover } from './support/handovers'
import { multipart, pictureBytes } from './support/images'
import { createTestApp, type TestApp } from './support/test-app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'
const call = (who: SignedIn | null, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who?.auth ?? {}, ...(payload ? { payload } : {}) })
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

function uploadRaw(who: SignedIn | null, file: { name: string; type: string; bytes: Buffer }) {
  const body = multipart('image', file)
  return t.app.inject({
    method: 'POST',
    url: '/api/handovers/photos',
    headers: { ...(who?.auth ?? {}), ...body.headers },
    payload: body.payload,
  })
}
async function upload(who: SignedIn, width = 320): Promise<TConditionPhoto> {
  const res = await uploadRaw(who, {
    name: 'drill.jpg',
    type: 'image/jpeg',
    bytes: await pictureBytes('jpeg', width, 240),
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json().photo
}

/** A circle with its admin, an owner who holds a drill, a receiver, and another member. */
async function circleWithItem() {
  const admin = await signedIn(t, { name: 'Ada Admin' })
  const owner = await signedIn(t, { name: 'Otto Owner' })
  const receiver = await signedIn(t, { name: 'Rita Receiver' })
  const other = await signedIn(t, { name: 'Olga Other' })
  const circle = await createCircle(t, admin)
  for (const who of [owner, receiver, other]) await addMember(t, admin, circle.id, who)
  const item = await createItem(t, owner, circle.id)
  return { admin, owner, receiver, other, circle, item }
}

async function request(w: Awaited<ReturnType<typeof circleWithItem>>, condition: object, extra: object = {}) {
  const res = await requestHandover(t, w.owner, {
    itemId: w.item.id,
    receiverId: w.receiver.user.id,
    condition,
    ...extra,
  })
  return res
}
const answer = (who: SignedIn, id: string, payload: object) =>
  call(who, 'PUT', `/api/handovers/${id}/status`, payload)

describe('condition photos: upload', () => {
  it('stores a re-encoded picture without EXIF or GPS; its digest is of exactly the bytes served', async () => {
    const { owner, other } = await circleWithItem()
    const bytes = await pictureBytes('jpeg', 800, 600, { gps: true })
    const res = await uploadRaw(owner, { name: 'with-gps.jpg', type: 'image/jpeg', bytes })
    expect(res.statusCode, res.body).toBe(201)
    const photo = res.json().photo as TConditionPhoto
    expect(photo.url).toMatch(/^\/api\/handovers\/photos\/[0-9a-f]{32}\.jpg$/)
    const served = await call(owner, 'GET', photo.url)
    expect(served.statusCode).toBe(200)
    expect(served.headers['content-type']).toBe('image/jpeg')
    expect(sha256(served.rawPayload)).toBe(photo.sha256)
    expect((await sharp(served.rawPayload).metadata()).exif).toBeUndefined()
    expect((await call(owner, 'GET', photo.thumbnailUrl)).statusCode).toBe(200)
    // Not attached yet: the uploader's alone; anyone else learns nothing.
    expect((await call(other, 'GET', photo.url)).statusCode).toBe(404)
    expect((await call(null, 'GET', photo.url)).statusCode).toBe(401)
    // Taken back before sending; the files go with it.
    expect((await call(other, 'DELETE', `/api/handovers/photos/${photo.id}`)).statusCode).toBe(404)
    expect((await call(owner, 'DELETE', `/api/handovers/photos/${photo.id}`)).statusCode).toBe(204)
    expect((await call(owner, 'GET', photo.url)).statusCode).toBe(404)
    expect((await call(owner, 'DELETE', `/api/handovers/photos/${photo.id}`)).json().message).toBe(
      MESSAGES.conditionPhotoNotFound,
    )
  })

  it('refuses other types, empty and oversized files, malformed names, and anonymous callers', async () => {
    const { owner } = await circleWithItem()
    const text = await uploadRaw(owner, {
      name: 'x.jpg',
      type: 'image/jpeg',
      bytes: Buffer.from('not a picture'),
    })
    expect([text.statusCode, text.json().message]).toEqual([400, MESSAGES.invalidImageType])
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')
    const refused = await uploadRaw(owner, { name: 'x.gif', type: 'image/gif', bytes: gif })
    expect([refused.statusCode, refused.json().message]).toEqual([400, MESSAGES.invalidImageType])
    const empty = await uploadRaw(owner, { name: 'x.jpg', type: 'image/jpeg', bytes: Buffer.alloc(0) })
    expect(empty.statusCode).toBe(400)
    const big = await uploadRaw(owner, {
      name: 'x.jpg',
      type: 'image/jpeg',
      bytes: Buffer.alloc(5 * 1024 * 1024 + 10, 1),
    })
    expect([big.statusCode, big.json().message]).toEqual([413, MESSAGES.imageTooLarge])
    expect((await uploadRaw(null, { name: 'x.jpg', type: 'image/jpeg', bytes: gif })).statusCode).toBe(401)
    expect((await call(owner, 'GET', '/api/handovers/photos/..%2F..%2Fetc%2Fpasswd')).statusCode).toBe(404)
    expect((await call(owner, 'DELETE', '/api/handovers/photos/not-a-uuid')).statusCode).toBe(400)
  })
})

describe('condition evidence on a handover', () => {
  it('both sides record photos and notes; the v5 block commits to every digest and note', async () => {
    const w = await circleWithItem()
    const [a, b] = [await upload(w.owner), await upload(w.owner, 400)]
    const res = await request(w, { photoIds: [a.id, b.id], note: 'Works fine, battery charged.' })
    expect(res.statusCode, res.body).toBe(201)
    const sent = res.json().handover as THandover
    expect(sent.condition).toEqual({
      sender: { note: 'Works fine, battery charged.', photos: [a, b] },
      receiver: { note: null, photos: [] },
      asDescribed: false,
    })
    // The receiver and the other members see them; an outsider does not.
    const outsider = await signedIn(t)
    for (const who of [w.receiver, w.other, w.admin])
      expect((await call(who, 'GET', a.url)).statusCode).toBe(200)
    expect((await call(outsider, 'GET', a.url)).statusCode).toBe(404)
    const listed = (await call(w.other, 'GET', `/api/handovers/item/${w.item.id}`)).json()
      .handovers as THandover[]
    expect(listed[0]!.condition.sender.photos.map((p) => p.id)).toEqual([a.id, b.id])

    const mine = await upload(w.receiver, 360)
    const accepted = await answer(w.receiver, sent.id, {
      status: 'CONFIRMED',
      condition: { photoIds: [mine.id], note: 'Received with a dent on the lid.' },
    })
    expect(accepted.statusCode, accepted.body).toBe(200)
    const handover = accepted.json().handover as THandover
    expect(handover.condition.receiver).toEqual({ note: 'Received with a dent on the lid.', photos: [mine] })
    expect(handover.block).toMatchObject({ height: 0 })

    const block = (await call(w.other, 'GET', `/api/blockchain/${handover.block!.id}`)).json().block as TBlock
    const content = block.content as BlockContentV5
    expect(content.v).toBe(5)
    expect(blockHash(content)).toBe(block.hash)
    // Each digest is SHA-256 of the bytes the member is served.
    const servedDigest = async (url: string) => sha256((await call(w.other, 'GET', url)).rawPayload)
    expect(content.evidence!.from.photos).toEqual([await servedDigest(a.url), await servedDigest(b.url)])
    expect(content.evidence!.to.photos).toEqual([await servedDigest(mine.url)])
    expect(content.evidence!.asDescribed).toBe(false)
    // The notes beside the block open the block's commitments.
    const kept = block.evidence!
    expect(kept.from.photos.map((p) => p.url)).toEqual([a.url, b.url])
    expect(noteCommitment(kept.from.note, kept.from.noteSalt!)).toBe(content.evidence!.from.note)
    expect(noteCommitment(kept.to.note, kept.to.noteSalt!)).toBe(content.evidence!.to.note)

    // Verify holds; the export carries the digests and checks out offline.
    const verify = (await call(w.other, 'GET', `/api/blockchain/verify/${w.circle.id}`)).json()
    expect(verify).toMatchObject({ valid: true, failingPhotos: [] })
    const exported = verifyExport((await call(w.other, 'GET', `/api/ledger/${w.circle.id}/export`)).body)
    expect(exported.valid).toBe(true)
    expect(findPhoto(exported.blocks, mine.sha256)).toEqual([
      { blockId: block.id, height: 0, side: 'to', position: 0, sha256: mine.sha256 },
    ])
  })

  it('holds the limits: 4 photos a side, 1000 characters, own unattached photos only', async () => {
    const w = await circleWithItem()
    const five = await Promise.all(Array.from({ length: 5 }, () => upload(w.owner)))
    const tooMany = await request(w, { photoIds: five.map((p) => p.id) })
    expect([tooMany.statusCode, tooMany.json().message]).toEqual([400, MESSAGES.conditionTooManyPhotos])
    const long = await request(w, { note: 'x'.repeat(1001) })
    expect([long.statusCode, long.json().message]).toEqual([400, MESSAGES.conditionNoteMax])
    const theirs = await upload(w.receiver)
    const foreign = await request(w, { photoIds: [theirs.id] })
    expect([foreign.statusCode, foreign.json().message]).toEqual([400, MESSAGES.conditionPhotoNotFound])
    const twice = await request(w, { photoIds: [five[0]!.id, five[0]!.id] })
    expect(twice.statusCode).toBe(400)
    // Nothing of a refused request stays: no handover, the photos still unattached.
    expect((await call(w.owner, 'GET', `/api/handovers/item/${w.item.id}`)).json().handovers).toEqual([])
    const sent = await request(w, { photoIds: five.slice(0, 4).map((p) => p.id) })
    expect(sent.statusCode, sent.body).toBe(201)
    // An attached photo cannot be attached again (here: by the receiver, who never owned it).
    const reuse = await answer(w.receiver, sent.json().handover.id, {
      status: 'CONFIRMED',
      condition: { photoIds: [five[0]!.id] },
    })
    expect([reuse.statusCode, reuse.json().message]).toEqual([400, MESSAGES.conditionPhotoNotFound])
    // Only the receiver answers, with or without photos.
    const others = await upload(w.other)
    const intruder = await answer(w.other, sent.json().handover.id, {
      status: 'CONFIRMED',
      condition: { photoIds: [others.id] },
    })
    expect(intruder.statusCode).toBe(403)
  })

  it("'as described' needs the sender's evidence and no evidence of one's own", async () => {
    const w = await circleWithItem()
    const plain = await request(w, {})
    expect(plain.statusCode).toBe(201)
    const nothing = await answer(w.receiver, plain.json().handover.id, {
      status: 'CONFIRMED',
      condition: { asDescribed: true },
    })
    expect([nothing.statusCode, nothing.json().message]).toEqual([400, MESSAGES.conditionNothingDescribed])
    await call(w.owner, 'DELETE', `/api/handovers/${plain.json().handover.id}`)

    const photo = await upload(w.owner)
    const sent = (await request(w, { photoIds: [photo.id], note: 'Like new' })).json().handover as THandover
    const both = await answer(w.receiver, sent.id, {
      status: 'CONFIRMED',
      condition: { asDescribed: true, note: 'Hm' },
    })
    expect([both.statusCode, both.json().message]).toEqual([400, MESSAGES.conditionAsDescribedWithOwn])
    const ok = await answer(w.receiver, sent.id, { status: 'CONFIRMED', condition: { asDescribed: true } })
    expect(ok.statusCode, ok.body).toBe(200)
    const block = (await call(w.receiver, 'GET', `/api/blockchain/${ok.json().handover.block.id}`)).json()
      .block
    expect(block.content.evidence).toMatchObject({ asDescribed: true, to: { note: null, photos: [] } })
    // A handover without any evidence writes evidence null.
    const back = await requestHandover(t, w.receiver, { itemId: w.item.id, receiverId: w.owner.user.id })
    const confirmed = await answerHandover(t, w.owner, back.json().handover.id, 'CONFIRMED')
    const plainBlock = (
      await call(w.owner, 'GET', `/api/blockchain/${confirmed.json().handover.block.id}`)
    ).json().block as TBlock
    expect(plainBlock.content).toMatchObject({ v: 5, evidence: null })
    expect(plainBlock.evidence).toBeNull()
  })

  it('a rejection keeps what both attached with the request; no block', async () => {
    const w = await circleWithItem()
    const photo = await upload(w.owner)
    const sent = (await request(w, { photoIds: [photo.id], note: 'As new' })).json().handover as THandover
    const mine = await upload(w.receiver)
    const rejected = await answer(w.receiver, sent.id, {
      status: 'REJECTED',
      condition: { photoIds: [mine.id], note: 'The chuck is broken' },
    })
    expect(rejected.statusCode, rejected.body).toBe(200)
    const [kept] = (await call(w.other, 'GET', `/api/handovers/item/${w.item.id}`)).json()
      .handovers as THandover[]
    expect(kept).toMatchObject({ status: 'REJECTED', block: null })
    expect(kept!.condition.sender.photos).toEqual([photo])
    expect(kept!.condition.receiver).toEqual({ note: 'The chuck is broken', photos: [mine] })
    expect((await call(w.other, 'GET', mine.url)).statusCode).toBe(200)
  })
})

describe('a photo replaced after the block was written', () => {
  it('is reported by verify, on disk or in the database, and the block page serves the other bytes', async () => {
    const w = await circleWithItem()
    const photo = await upload(w.owner)
    const sent = (await request(w, { photoIds: [photo.id] })).json().handover as THandover
    const done = await answer(w.receiver, sent.id, { status: 'CONFIRMED' })
    const blockId = done.json().handover.block.id as string
    const verify = async () => (await call(w.other, 'GET', `/api/blockchain/verify/${w.circle.id}`)).json()
    expect(await verify()).toMatchObject({ valid: true, failingPhotos: [] })

    // The stored bytes replaced (the file on disk with the embedded database, the row with PostgreSQL).
    const other = await pictureBytes('jpeg', 100, 100)
    const file = photo.url.split('/').pop()!
    if (t.database.kind === 'postgres') {
      await t.database.db.update(storedFiles).set({ bytes: other }).where(eq(storedFiles.name, file))
    } else {
      expect(await readdir(path.join(t.dataDir, 'uploads'))).toContain(file)
      await writeFile(path.join(t.dataDir, 'uploads', file), other)
    }
    expect(sha256((await call(w.other, 'GET', photo.url)).rawPayload)).not.toBe(photo.sha256)
    const tampered = await verify()
    expect(tampered).toMatchObject({ valid: false, message: MESSAGES.ledgerCompromised, failingBlocks: [] })
    expect(tampered.failingPhotos).toEqual([
      { blockId, index: 0, side: 'from', photo: 1, expected: photo.sha256, actual: sha256(other) },
    ])

    // The row pointed at another picture instead: reported too.
    const decoy = await upload(w.owner, 500)
    await t.database.db.delete(conditionPhotos).where(eq(conditionPhotos.id, decoy.id))
    await t.database.db
      .update(conditionPhotos)
      .set({ imageId: decoy.url.split('/').pop()!.slice(0, 32) })
      .where(eq(conditionPhotos.id, photo.id))
    expect((await verify()).failingPhotos).toMatchObject([{ blockId, photo: 1, expected: photo.sha256 }])
    expect((await verify()).failingPhotos[0].actual).not.toBe(photo.sha256)
  })
})

describe('when the item is deleted', () => {
  it('its photos go; the digests stay in the ledger and it still verifies', async () => {
    const w = await circleWithItem()
    const photo = await upload(w.owner)
    const sent = (
      await request(w, { photoIds: [photo.id], note: 'Fine' }, { completeOwnership: true })
    ).json().handover as THandover
    const done = await answer(w.receiver, sent.id, { status: 'CONFIRMED' })
    const blockId = done.json().handover.block.id as string
    expect((await call(w.receiver, 'DELETE', `/api/items/${w.item.id}`)).statusCode).toBe(200)
    await t.app.inject({ method: 'GET', url: '/api/health' })
    // The sweep runs after the deletion; wait for it (it is started by the item.deleted event).
    await expect
      .poll(
        async () =>
          (await t.database.db.select().from(conditionPhotos).where(eq(conditionPhotos.id, photo.id))).length,
      )
      .toBe(0)
    expect((await call(w.receiver, 'GET', photo.url)).statusCode).toBe(404)
    const block = (await call(w.other, 'GET', `/api/blockchain/${blockId}`)).json().block as TBlock
    expect((block.content as BlockContentV5).evidence!.from.photos).toEqual([photo.sha256])
    expect(block.evidence!.from.photos).toEqual([{ sha256: photo.sha256, url: null, thumbnailUrl: null }])
    expect((await call(w.other, 'GET', `/api/blockchain/verify/${w.circle.id}`)).json()).toMatchObject({
      valid: true,
      failingPhotos: [],
    })
  })

  it('uploads never attached are swept after a day', async () => {
    const w = await circleWithItem()
    const photo = await upload(w.owner)
    await t.database.db.execute(
      sql`update condition_photos set created_at = now() - interval '25 hours' where id = ${photo.id}`,
    )
    // Too old to attach even before the sweep removes it.
    const late = await request(w, { photoIds: [photo.id] })
    expect([late.statusCode, late.json().message]).toEqual([400, MESSAGES.conditionPhotoNotFound])
    // The next sweep removes it (one runs hourly, after uploads now and then, and after a deleted item).
    expect((await call(w.owner, 'DELETE', `/api/items/${w.item.id}`)).statusCode).toBe(200)
    await expect.poll(async () => (await call(w.owner, 'GET', photo.url)).statusCode).toBe(404)
  })
})

describe('a loan and its return with condition evidence', () => {
  it('the borrower returns with a photo; the RETURN block records it on the borrower’s side', async () => {
    const w = await circleWithItem()
    const lent = await request(
      w,
      { note: 'Battery full' },
      { kind: 'LOAN', dueAt: new Date(Date.now() + 7 * 864e5).toISOString() },
    )
    expect(lent.statusCode, lent.body).toBe(201)
    const confirmed = await answer(w.receiver, lent.json().handover.id, {
      status: 'CONFIRMED',
      condition: { asDescribed: true },
    })
    expect(confirmed.statusCode, confirmed.body).toBe(200)
    const loanId = confirmed.json().handover.loanId as string
    const loanBlock = (
      await call(w.owner, 'GET', `/api/blockchain/${confirmed.json().handover.block.id}`)
    ).json().block
    expect(loanBlock.content).toMatchObject({ v: 5, kind: 'LOAN', evidence: { asDescribed: true } })
    expect(loanBlock.content.evidence.from.note).toMatch(/^[0-9a-f]{64}$/)

    const photo = await upload(w.receiver)
    const started = await call(w.receiver, 'POST', `/api/loans/${loanId}/return`, {
      comment: 'Thanks!',
      condition: { photoIds: [photo.id], note: 'Cleaned it' },
    })
    expect(started.statusCode, started.body).toBe(200)
    const returnId = started.json().loan.pendingReturn.handoverId as string
    const back = await answer(w.owner, returnId, { status: 'CONFIRMED' })
    expect(back.statusCode, back.body).toBe(200)
    const block = (await call(w.other, 'GET', `/api/blockchain/${back.json().handover.block.id}`)).json()
      .block
    // RETURN: borrower → lender; the borrower started it, so their photo is `from`.
    expect(block.content).toMatchObject({
      v: 5,
      kind: 'RETURN',
      from: { id: w.receiver.user.id },
      evidence: { asDescribed: false, from: { photos: [photo.sha256] }, to: { note: null, photos: [] } },
    })
    expect(block.evidence.from.note).toBe('Cleaned it')
    expect((await call(w.other, 'GET', `/api/blockchain/verify/${w.circle.id}`)).json()).toMatchObject({
      valid: true,
    })
  })
})

describe('an ask to borrow accepted with condition evidence', () => {
  it('the loan offered carries the owner’s photos and note', async () => {
    const w = await circleWithItem()
    const asked = await call(w.receiver, 'POST', `/api/items/${w.item.id}/borrow-requests`, {
      wishedUntil: new Date(Date.now() + 7 * 864e5).toISOString(),
    })
    expect(asked.statusCode, asked.body).toBe(201)
    const photo = await upload(w.owner)
    const accepted = await call(w.owner, 'PUT', `/api/borrow-requests/${asked.json().borrowRequest.id}`, {
      status: 'ACCEPTED',
      condition: { photoIds: [photo.id], note: 'Fresh blade' },
    })
    expect(accepted.statusCode, accepted.body).toBe(200)
    const [offer] = (await call(w.receiver, 'GET', `/api/handovers/item/${w.item.id}`)).json()
      .handovers as THandover[]
    expect(offer).toMatchObject({ kind: 'LOAN', status: 'PENDING' })
    expect(offer!.condition.sender).toEqual({ note: 'Fresh blade', photos: [photo] })
  })
})
