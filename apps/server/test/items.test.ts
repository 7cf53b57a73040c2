import { mkdtemp } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { MESSAGES } from '@circles/shared'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { fromPostgres } from '../src/db/client'
import { items } from '../src/db/schema'
import { addMember, createCircle, type SignedIn, signedIn } from './support/circles'
import { multipart, pictureBytes } from './support/images'
import { createTestApp, TEST_JWT_SECRET, type TestApp } from './support/test-app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

/** A circle with an admin and one member. */
async function circleWithMember() {
  const admin = await signedIn(t, { name: 'Ada Admin' })
  const member = await signedIn(t, { name: 'Max Member' })
  const circle = await createCircle(t, admin)
  await addMember(t, admin, circle.id, member)
  return { admin, member, circle }
}

async function createItem(who: SignedIn, circleId: string, body: Record<string, unknown> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/items',
    headers: who.auth,
    payload: { name: 'Cordless drill', description: 'With two batteries', circleId, ...body },
  })
}

function upload(
  who: SignedIn | null,
  itemId: string,
  file: { name: string; type: string; bytes: Buffer },
  field = 'image',
) {
  const body = multipart(field, file)
  return t.app.inject({
    method: 'POST',
    url: `/api/items/${itemId}/image`,
    headers: { ...(who?.auth ?? {}), ...body.headers },
    payload: body.payload,
  })
}

const get = (who: SignedIn | null, url: string) =>
  t.app.inject({ method: 'GET', url, headers: who?.auth ?? {} })

describe('items', () => {
  it('a member creates an item; members see it, outsiders do not', async () => {
    const { admin, member, circle } = await circleWithMember()
    const outsider = await signedIn(t)
    const created = await createItem(member, circle.id)
    expect(created.statusCode).toBe(201)
    const item = created.json().item
    expect(item).toMatchObject({
      name: 'Cordless drill',
      description: 'With two batteries',
      imageUrl: null,
      thumbnailUrl: null,
      circleId: circle.id,
      ownerId: member.user.id,
      ownership: 'COMPLETE',
      owner: { name: 'Max Member' },
      circle: { name: circle.name, adminId: admin.user.id },
      ownerLeftCircle: false,
      hasPendingHandovers: false,
      locked: false,
    })
    expect(created.json().message).toBe(MESSAGES.itemCreated)

    expect((await get(admin, `/api/items/${item.id}`)).json().item.id).toBe(item.id)
    expect(
      (await get(admin, `/api/items/circle/${circle.id}`)).json().items.map((i: { id: string }) => i.id),
    ).toEqual([item.id])
    expect((await get(admin, '/api/items')).json().items.map((i: { id: string }) => i.id)).toContain(item.id)
    expect((await get(member, '/api/items/my-items')).json().items.map((i: { id: string }) => i.id)).toEqual([
      item.id,
    ])
    expect((await get(admin, '/api/items/my-items')).json().items).toEqual([])
    const detail = (await get(admin, `/api/circles/${circle.id}`)).json().circle
    expect(detail.items).toEqual([
      expect.objectContaining({
        id: item.id,
        name: 'Cordless drill',
        hasPendingHandover: false,
        thumbnailUrl: null,
      }),
    ])

    expect((await get(outsider, `/api/items/${item.id}`)).statusCode).toBe(404)
    expect((await get(outsider, `/api/items/circle/${circle.id}`)).statusCode).toBe(404)
    expect((await get(outsider, '/api/items')).json().items).toEqual([])
    expect((await get(null, `/api/items/${item.id}`)).statusCode).toBe(401)
    expect((await createItem(outsider, circle.id)).statusCode).toBe(404)
  })

  it('validates the form with the spec messages', async () => {
    const { member, circle } = await circleWithMember()
    expect((await createItem(member, circle.id, { name: '   ' })).json()).toMatchObject({
      message: MESSAGES.itemNameRequired,
    })
    expect((await createItem(member, circle.id, { name: 'x'.repeat(101) })).json().message).toBe(
      MESSAGES.itemNameMax,
    )
    expect((await createItem(member, circle.id, { circleId: 'nope' })).statusCode).toBe(404)
    const withImage = await createItem(member, circle.id, {
      imageUrl: '/api/items/image/' + 'a'.repeat(32) + '.jpg',
    })
    expect(withImage.statusCode).toBe(400)
    expect(withImage.json().message).toBe(MESSAGES.imageNotFromThisItem)
    const empty = await createItem(member, circle.id, { description: '' })
    expect(empty.json().item.description).toBeNull()
  })

  it('the holder and the admin edit; another member may not, nor delete', async () => {
    const { admin, member, circle } = await circleWithMember()
    const other = await signedIn(t, { name: 'Olga Other' })
    await addMember(t, admin, circle.id, other)
    const item = (await createItem(member, circle.id)).json().item
    const put = (who: SignedIn, payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PUT', url: `/api/items/${item.id}`, headers: who.auth, payload })

    expect((await put(member, { name: 'Drill', description: null })).json().item).toMatchObject({
      name: 'Drill',
      description: null,
    })
    expect((await put(admin, { name: 'Drill (admin)', description: 'Checked' })).json().item.name).toBe(
      'Drill (admin)',
    )
    const refused = await put(other, { name: 'Mine now' })
    expect(refused.statusCode).toBe(403)
    expect(refused.json().message).toBe(MESSAGES.itemEditForbidden)

    const del = (who: SignedIn) =>
      t.app.inject({ method: 'DELETE', url: `/api/items/${item.id}`, headers: who.auth })
    for (const who of [other, admin]) {
      const res = await del(who)
      expect(res.statusCode).toBe(403)
      expect(res.json().message).toBe(MESSAGES.itemDeleteNeedsCompleteOwnership)
    }
    expect((await get(member, `/api/items/${item.id}/ownership-status`)).json()).toEqual({
      hasFullOwnership: true,
    })
    expect((await get(admin, `/api/items/${item.id}/ownership-status`)).json()).toEqual({
      hasFullOwnership: false,
    })
    expect((await del(member)).json()).toEqual({ message: MESSAGES.itemDeleted })
    expect((await get(member, `/api/items/${item.id}`)).statusCode).toBe(404)
  })

  it('counts the Personal plan’s 10 items a user holds', async () => {
    const { member, circle } = await circleWithMember()
    for (let i = 0; i < 10; i++)
      expect((await createItem(member, circle.id, { name: `Thing ${i}` })).statusCode).toBe(201)
    const refused = await createItem(member, circle.id, { name: 'Eleventh' })
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toMatchObject({ code: 'PLAN_LIMIT_REACHED', message: MESSAGES.itemLimitReached })
  })

  it('a removed member keeps complete items, isolated; partial ones pass to the admin', async () => {
    const { admin, member, circle } = await circleWithMember()
    const complete = (await createItem(member, circle.id, { name: 'Own ladder' })).json().item
    const partial = (await createItem(member, circle.id, { name: 'Borrowed saw' })).json().item
    await t.database.db.update(items).set({ ownership: 'PARTIAL' }).where(eq(items.id, partial.id))

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/circles/${circle.id}/users/${member.user.id}`,
      headers: admin.auth,
    })
    expect(removed.statusCode).toBe(200)

    const kept = (await get(member, `/api/items/${complete.id}`)).json().item
    expect(kept).toMatchObject({ ownerId: member.user.id, ownerLeftCircle: true })
    expect((await get(member, '/api/items/my-items')).json().items.map((i: { id: string }) => i.id)).toEqual([
      complete.id,
    ])
    expect((await get(admin, `/api/items/${complete.id}`)).statusCode).toBe(404)
    const inCircle = (await get(admin, `/api/items/circle/${circle.id}`)).json().items
    expect(inCircle.map((i: { id: string; ownerId: string }) => [i.id, i.ownerId])).toEqual([
      [partial.id, admin.user.id],
    ])
    // Isolated: viewable and deletable, not editable.
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: `/api/items/${complete.id}`,
          headers: member.auth,
          payload: { name: 'x' },
        })
      ).json().message,
    ).toBe(MESSAGES.itemNotInCircle)
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/items/${complete.id}`, headers: member.auth }))
        .statusCode,
    ).toBe(200)
  })
})

describe('pictures', () => {
  let owner: SignedIn
  let admin: SignedIn
  let itemId: string
  beforeAll(async () => {
    const setup = await circleWithMember()
    owner = setup.member
    admin = setup.admin
    itemId = (await createItem(owner, setup.circle.id)).json().item.id
  })

  it.each([
    ['jpeg', 'image/jpeg', 'jpg'],
    ['png', 'image/png', 'png'],
    ['webp', 'image/webp', 'webp'],
  ] as const)('takes a real %s, re-encoded, with a small WebP rendition', async (format, type, extension) => {
    const res = await upload(owner, itemId, {
      name: `photo.${extension}`,
      type,
      bytes: await pictureBytes(format),
    })
    expect(res.statusCode, res.body).toBe(200)
    const { imageUrl, thumbnailUrl } = res.json()
    expect(imageUrl).toMatch(new RegExp(`^/api/items/image/[0-9a-f]{32}\\.${extension}$`))
    expect(thumbnailUrl).toMatch(/^\/api\/items\/image\/[0-9a-f]{32}-small\.webp$/)
    const full = await get(admin, imageUrl)
    expect(full.statusCode).toBe(200)
    expect(full.headers['content-type']).toBe(type)
    expect(full.headers['cache-control']).toBe('no-store')
    const small = await get(owner, thumbnailUrl)
    expect((await sharp(small.rawPayload).metadata()).format).toBe('webp')
    expect((await get(owner, `/api/items/${itemId}`)).json().item.imageUrl).toBe(imageUrl)
  })

  it('decides the type by content, and refuses empty, missing and oversized files with the spec messages', async () => {
    const text = await upload(owner, itemId, {
      name: 'notes.jpg',
      type: 'image/jpeg',
      bytes: Buffer.from('just some text, not a picture'),
    })
    expect(text.statusCode).toBe(400)
    expect(text.json().message).toBe(MESSAGES.invalidImageType)

    const gif = await upload(owner, itemId, {
      name: 'a.gif',
      type: 'image/gif',
      bytes: await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
        .gif()
        .toBuffer(),
    })
    expect(gif.json().message).toBe(MESSAGES.invalidImageType)

    const zero = await upload(owner, itemId, {
      name: 'empty.jpg',
      type: 'image/jpeg',
      bytes: Buffer.alloc(0),
    })
    expect(zero.statusCode).toBe(400)
    expect(zero.json().message).toBe(MESSAGES.imageZeroSize)

    const wrongField = await upload(
      owner,
      itemId,
      { name: 'p.jpg', type: 'image/jpeg', bytes: await pictureBytes('jpeg') },
      'file',
    )
    expect(wrongField.statusCode).toBe(400)
    expect(wrongField.json().message).toBe(MESSAGES.noFileToUpload)

    const noBody = await t.app.inject({
      method: 'POST',
      url: `/api/items/${itemId}/image`,
      headers: owner.auth,
      payload: {},
    })
    expect(noBody.statusCode).toBe(400)
    expect(noBody.json().message).toBe(MESSAGES.noFileToUpload)

    const big = await upload(owner, itemId, {
      name: 'big.jpg',
      type: 'image/jpeg',
      bytes: Buffer.alloc(6 * 1024 * 1024, 0xff),
    })
    expect(big.statusCode).toBe(413)
    expect(big.json().message).toBe(MESSAGES.imageTooLarge)

    const cut = await t.app.inject({
      method: 'POST',
      url: `/api/items/${itemId}/image`,
      headers: { ...owner.auth, 'content-type': 'multipart/form-data; boundary=xyz' },
      payload: '--xyz\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\n\r\nabc',
    })
    expect(cut.statusCode).toBeGreaterThanOrEqual(400)
    expect(cut.statusCode).toBeLessThan(500)
  })

  it('strips GPS and EXIF, and scales a 4000x3000 photo to 1920 px (480 px small)', async () => {
    const input = await pictureBytes('jpeg', 4000, 3000, { gps: true })
    // The input carries EXIF with a GPS directory (tag 0x8825, little-endian in sharp's EXIF block).
    const exif = (await sharp(input).metadata()).exif
    expect(exif?.toString('latin1')).toContain('Circles Test Camera')
    expect(exif?.includes(Buffer.from([0x25, 0x88]))).toBe(true)
    const res = await upload(owner, itemId, { name: 'big.jpg', type: 'image/jpeg', bytes: input })
    expect(res.statusCode, res.body).toBe(200)
    const full = await sharp((await get(owner, res.json().imageUrl)).rawPayload).metadata()
    expect([full.width, full.height]).toEqual([1920, 1440])
    expect(full.exif).toBeUndefined()
    const small = await sharp((await get(owner, res.json().thumbnailUrl)).rawPayload).metadata()
    expect([small.width, small.height]).toEqual([480, 360])
  })

  it('serves pictures to members only, revalidates by ETag, and removes a replaced picture', async () => {
    const outsider = await signedIn(t)
    const first = (
      await upload(owner, itemId, { name: 'a.png', type: 'image/png', bytes: await pictureBytes('png') })
    ).json()
    expect((await get(outsider, first.imageUrl)).statusCode).toBe(404)
    expect((await get(null, first.imageUrl)).statusCode).toBe(401)
    expect(
      (await upload(outsider, itemId, { name: 'a.png', type: 'image/png', bytes: await pictureBytes('png') }))
        .statusCode,
    ).toBe(404)
    expect(
      (await upload(null, itemId, { name: 'a.png', type: 'image/png', bytes: await pictureBytes('png') }))
        .statusCode,
    ).toBe(401)

    const fetched = await get(admin, first.imageUrl)
    const again = await t.app.inject({
      method: 'GET',
      url: first.imageUrl,
      headers: { ...admin.auth, 'if-none-match': fetched.headers.etag as string },
    })
    expect(again.statusCode).toBe(304)

    const second = (
      await upload(owner, itemId, { name: 'b.webp', type: 'image/webp', bytes: await pictureBytes('webp') })
    ).json()
    expect((await get(owner, first.imageUrl)).statusCode).toBe(404)
    expect((await get(owner, second.imageUrl)).statusCode).toBe(200)

    // PUT with null removes the picture; a foreign picture is refused.
    const foreign = await t.app.inject({
      method: 'PUT',
      url: `/api/items/${itemId}`,
      headers: owner.auth,
      payload: { name: 'Drill', imageUrl: first.imageUrl },
    })
    expect(foreign.json().message).toBe(MESSAGES.imageNotFromThisItem)
    const kept = await t.app.inject({
      method: 'PUT',
      url: `/api/items/${itemId}`,
      headers: owner.auth,
      payload: { name: 'Drill', imageUrl: second.imageUrl },
    })
    expect(kept.json().item.imageUrl).toBe(second.imageUrl)
    const cleared = await t.app.inject({
      method: 'PUT',
      url: `/api/items/${itemId}`,
      headers: owner.auth,
      payload: { name: 'Drill', imageUrl: null },
    })
    expect(cleared.json().item.imageUrl).toBeNull()
    expect((await get(owner, second.imageUrl)).statusCode).toBe(404)
  })
})

// Several instances on one PostgreSQL serve each other's uploads.
describe.runIf(process.env.DATABASE_URL)('two instances on one PostgreSQL', () => {
  it('one stores a picture, the other serves it', async () => {
    const url = t.database.pool?.options.connectionString
    if (!url) throw new Error('the PostgreSQL test database has no connection string')
    const secondDatabase = fromPostgres(url, 2)
    const second = await buildApp({
      config: loadConfig({
        LOG_LEVEL: 'silent',
        DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'circles-test-')),
        DATABASE_URL: url,
      }),
      database: secondDatabase,
      jwtSecret: TEST_JWT_SECRET,
      webDir: null,
    })
    try {
      const { member, circle } = await circleWithMember()
      const item = (await createItem(member, circle.id)).json().item
      const stored = (
        await upload(member, item.id, {
          name: 'p.jpg',
          type: 'image/jpeg',
          bytes: await pictureBytes('jpeg'),
        })
      ).json()
      const served = await second.inject({ method: 'GET', url: stored.imageUrl, headers: member.auth })
      expect(served.statusCode).toBe(200)
      expect((await sharp(served.rawPayload).metadata()).format).toBe('jpeg')
    } finally {
      await second.close()
      await secondDatabase.close()
    }
  })
})
