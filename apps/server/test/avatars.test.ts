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
import { users } from '../src/db/schema'
import { removeAvatar } from '../src/modules/avatars/avatars.service'
import { addMember, createCircle, type SignedIn, signedIn } from './support/circles'
import { multipart, pictureBytes } from './support/images'
import { createTestApp, TEST_JWT_SECRET, type TestApp } from './support/test-app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

function upload(who: SignedIn | null, file: { name: string; type: string; bytes: Buffer }, field = 'image') {
  const body = multipart(field, file)
  return t.app.inject({
    method: 'PUT',
    url: '/api/users/me/avatar',
    headers: { ...(who?.auth ?? {}), ...body.headers },
    payload: body.payload,
  })
}

const get = (who: SignedIn | null, url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...(who?.auth ?? {}), ...headers } })

const remove = (who: SignedIn | null) =>
  t.app.inject({ method: 'DELETE', url: '/api/users/me/avatar', headers: who?.auth ?? {} })

const png = async () => ({ name: 'me.png', type: 'image/png', bytes: await pictureBytes('png', 640, 480) })

describe('avatar', () => {
  it('uploads a square 256 px WebP without metadata; /users/me and the members carry its URL', async () => {
    const ada = await signedIn(t, { name: 'Ada Avatar' })
    const max = await signedIn(t, { name: 'Max Member' })
    const circle = await createCircle(t, ada)
    await addMember(t, ada, circle.id, max)
    expect((await get(ada, '/api/users/me')).json().user.avatarUrl).toBeNull()

    const input = await pictureBytes('jpeg', 1200, 800, { gps: true })
    expect((await sharp(input).metadata()).exif).toBeDefined()
    const res = await upload(ada, { name: 'photo.jpg', type: 'image/jpeg', bytes: input })
    expect(res.statusCode, res.body).toBe(200)
    const { user, message } = res.json()
    expect(message).toBe(MESSAGES.avatarUpdated)
    expect(user.avatarUrl).toMatch(/^\/api\/users\/avatars\/[0-9a-f]{32}\.webp$/)
    expect((await get(ada, '/api/users/me')).json().user.avatarUrl).toBe(user.avatarUrl)

    const served = await get(ada, user.avatarUrl)
    expect(served.statusCode).toBe(200)
    expect(served.headers['content-type']).toBe('image/webp')
    const meta = await sharp(served.rawPayload).metadata()
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 256, 256])
    expect(meta.exif).toBeUndefined()
    expect(meta.icc).toBeUndefined()

    const detail = (await get(max, `/api/circles/${circle.id}`)).json().circle
    const members = Object.fromEntries(
      detail.users.map((m: { userId: string; user: { avatarUrl: string | null } }) => [m.userId, m.user]),
    )
    expect(members[ada.user.id].avatarUrl).toBe(user.avatarUrl)
    expect(members[max.user.id].avatarUrl).toBeNull()
  })

  it('serves a co-member, answers 404 to a stranger and 401 without a session; revalidates by ETag', async () => {
    const ada = await signedIn(t, { name: 'Ada Avatar' })
    const max = await signedIn(t, { name: 'Max Member' })
    const stranger = await signedIn(t, { name: 'Sam Stranger' })
    const circle = await createCircle(t, ada)
    await addMember(t, ada, circle.id, max)
    const { avatarUrl } = (await upload(ada, await png())).json().user

    const fetched = await get(max, avatarUrl)
    expect(fetched.statusCode).toBe(200)
    const etag = fetched.headers.etag as string
    expect(etag).toBe(`"${avatarUrl.split('/').pop()}"`)
    const again = await get(max, avatarUrl, { 'if-none-match': etag })
    expect(again.statusCode).toBe(304)
    expect(again.rawPayload.length).toBe(0)

    const refused = await get(stranger, avatarUrl)
    expect(refused.statusCode).toBe(404)
    expect(refused.json().message).toBe(MESSAGES.notFound)
    // The same 404 as an avatar that never existed, and as a malformed name.
    expect((await get(stranger, `/api/users/avatars/${'a'.repeat(32)}.webp`)).statusCode).toBe(404)
    expect((await get(max, '/api/users/avatars/..%2Fsecret.webp')).statusCode).toBe(404)
    expect((await get(null, avatarUrl)).statusCode).toBe(401)
    // An avatar's name is no item picture, and the other way round.
    expect((await get(max, `/api/items/image/${avatarUrl.split('/').pop()}`)).statusCode).toBe(404)

    // Once Max leaves the circle they share nothing: 404.
    const left = await t.app.inject({
      method: 'POST',
      url: `/api/circles/${circle.id}/leave`,
      headers: max.auth,
    })
    expect(left.statusCode, left.body).toBe(200)
    expect((await get(max, avatarUrl)).statusCode).toBe(404)
  })

  it('replaces (new URL, the old one gone) and removes (initials again, the file gone)', async () => {
    const ada = await signedIn(t, { name: 'Ada Avatar' })
    const first = (await upload(ada, await png())).json().user.avatarUrl
    const second = (
      await upload(ada, { name: 'b.webp', type: 'image/webp', bytes: await pictureBytes('webp', 300, 900) })
    ).json().user.avatarUrl
    expect(second).not.toBe(first)
    expect((await get(ada, first)).statusCode).toBe(404)
    const meta = await sharp((await get(ada, second)).rawPayload).metadata()
    expect([meta.width, meta.height]).toEqual([256, 256])

    const removed = await remove(ada)
    expect(removed.statusCode, removed.body).toBe(200)
    expect(removed.json().message).toBe(MESSAGES.avatarRemoved)
    expect(removed.json().user.avatarUrl).toBeNull()
    expect((await get(ada, second)).statusCode).toBe(404)
    expect((await get(ada, '/api/users/me')).json().user.avatarUrl).toBeNull()
    // Removing none is no error; without a session, 401.
    expect((await remove(ada)).statusCode).toBe(200)
    expect((await remove(null)).statusCode).toBe(401)
  })

  it('refuses a non-image, another type, an empty and an oversized file with the item messages', async () => {
    const ada = await signedIn(t, { name: 'Ada Avatar' })
    const text = await upload(ada, {
      name: 'notes.jpg',
      type: 'image/jpeg',
      bytes: Buffer.from('not a picture'),
    })
    expect(text.statusCode).toBe(400)
    expect(text.json().message).toBe(MESSAGES.invalidImageType)
    const gif = await upload(ada, {
      name: 'a.gif',
      type: 'image/gif',
      bytes: await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
        .gif()
        .toBuffer(),
    })
    expect(gif.statusCode).toBe(400)
    expect(gif.json().message).toBe(MESSAGES.invalidImageType)
    const zero = await upload(ada, { name: 'empty.png', type: 'image/png', bytes: Buffer.alloc(0) })
    expect(zero.json().message).toBe(MESSAGES.imageZeroSize)
    const wrongField = await upload(ada, await png(), 'file')
    expect(wrongField.statusCode).toBe(400)
    expect(wrongField.json().message).toBe(MESSAGES.noFileToUpload)
    const big = await upload(ada, {
      name: 'big.jpg',
      type: 'image/jpeg',
      bytes: Buffer.alloc(6 * 1024 * 1024, 0xff),
    })
    expect(big.statusCode).toBe(413)
    expect(big.json().message).toBe(MESSAGES.imageTooLarge)
    expect((await upload(null, await png())).statusCode).toBe(401)
    expect((await get(ada, '/api/users/me')).json().user.avatarUrl).toBeNull()
  })

  it("removeAvatar(tx, userId) clears the avatar in the caller's transaction and names the file", async () => {
    const ada = await signedIn(t, { name: 'Ada Avatar' })
    const { avatarUrl } = (await upload(ada, await png())).json().user
    const id = avatarUrl.split('/').pop()!.replace('.webp', '')
    const names = await t.database.db.transaction((tx) => removeAvatar(tx, ada.user.id))
    expect(names).toEqual([`avatar-${id}.webp`])
    const [row] = await t.database.db.select().from(users).where(eq(users.id, ada.user.id))
    expect(row!.avatarId).toBeNull()
    expect((await get(ada, avatarUrl)).statusCode).toBe(404)
    expect(await t.database.db.transaction((tx) => removeAvatar(tx, ada.user.id))).toEqual([])
  })
})

// Several instances on one PostgreSQL serve each other's avatars.
describe.runIf(process.env.DATABASE_URL)('two instances on one PostgreSQL', () => {
  it('one stores an avatar, the other serves it to a co-member', async () => {
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
      const ada = await signedIn(t, { name: 'Ada Avatar' })
      const max = await signedIn(t, { name: 'Max Member' })
      const circle = await createCircle(t, ada)
      await addMember(t, ada, circle.id, max)
      const { avatarUrl } = (await upload(ada, await png())).json().user
      const served = await second.inject({ method: 'GET', url: avatarUrl, headers: max.auth })
      expect(served.statusCode).toBe(200)
      expect((await sharp(served.rawPayload).metadata()).format).toBe('webp')
    } finally {
      await second.close()
      await secondDatabase.close()
    }
  })
})
