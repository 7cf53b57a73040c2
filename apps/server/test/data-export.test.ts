import { createHash } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {
  type BlockContent,
  blockBytes,
  leafHash,
  openCheckpoint,
  parseVerifierKey,
  verifyInclusion,
} from '@circles/ledger'
import { MESSAGES, type TConditionPhoto } from '@circles/shared'
import { main as cli } from '../../../packages/ledger/src/cli'
import { unzipSync, strFromU8 } from 'fflate'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DataExport } from '../src/modules/export/export-format'
import { type SignedIn, addMember, createCircle, signedIn } from './support/circles'
import { softwarePasskey } from './support/authenticator'
import { DEFAULT_PASSWORD } from './support/factories'
import { answerHandover, createItem, handOver, pendingHandover } from './support/handovers'
import { multipart, pictureBytes } from './support/images'
import { insertLoan } from './support/loans'
import { type TestApp, createTestApp } from './support/test-app'

/**
 * "Download my data" (issue 24, docs/decisions/0038): GET /api/users/me/export answers a ZIP of
 * circles-data.json, the pictures of the person's items and a README; only the person's own data.
 */

let t: TestApp
let alice: SignedIn
let bob: SignedIn
let carol: SignedIn
let circleId: string
let drillId: string
let pictureUrl: string
let conditionPhoto: TConditionPhoto

const fromHex = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'))
const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')

async function exportOf(who: SignedIn) {
  const res = await t.app.inject({ method: 'GET', url: '/api/users/me/export', headers: who.auth })
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200)
  const files = unzipSync(new Uint8Array(res.rawPayload))
  const data = JSON.parse(strFromU8(files['circles-data.json']!)) as DataExport
  return { res, files, data, text: strFromU8(files['circles-data.json']!) }
}

/** The app's data directory, to take a picture away from under it. */
let dataDir: string

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'circles-export-'))
  t = await createTestApp({ env: { DATA_DIR: dataDir } })
  alice = await signedIn(t, { name: 'Alice Export' })
  bob = await signedIn(t, { name: 'Bob Export', language: 'de' })
  carol = await signedIn(t, { name: 'Carol Export' })
  const circle = await createCircle(t, alice, { name: 'Workshop' })
  circleId = circle.id
  await addMember(t, alice, circleId, bob)
  await addMember(t, alice, circleId, carol)

  const drill = await createItem(t, alice, circleId, 'Drill')
  drillId = drill.id
  const body = multipart('image', {
    name: 'drill.jpg',
    type: 'image/jpeg',
    bytes: await pictureBytes('jpeg'),
  })
  const upload = await t.app.inject({
    method: 'POST',
    url: `/api/items/${drillId}/image`,
    headers: { ...alice.auth, ...body.headers },
    payload: body.payload,
  })
  expect(upload.statusCode, upload.body).toBe(200)
  pictureUrl = upload.json().imageUrl

  // Alice to Bob, confirmed: a block from Alice to Bob, with a secret meant for Bob and a condition
  // photo (issue 28).
  const photoBody = multipart('image', {
    name: 'scratch.jpg',
    type: 'image/jpeg',
    bytes: await pictureBytes('jpeg', 300, 200),
  })
  const photo = await t.app.inject({
    method: 'POST',
    url: '/api/handovers/photos',
    headers: { ...alice.auth, ...photoBody.headers },
    payload: photoBody.payload,
  })
  expect(photo.statusCode, photo.body).toBe(201)
  conditionPhoto = photo.json().photo
  const pending = await pendingHandover(t, alice, bob, drillId, {
    requesterComment: 'Charger is in the box',
    secretMessage: 'Locker code 4711',
    completeOwnership: true,
    condition: { photoIds: [conditionPhoto.id], note: 'Scratch on the grip' },
  })
  const answered = await answerHandover(t, bob, pending.id, 'CONFIRMED', 'Thanks, got it')
  expect(answered.statusCode, answered.body).toBe(200)
  // Bob to Carol: Alice is no party; its secret and its block are not hers.
  await handOver(t, bob, carol, drillId, { secretMessage: 'Carol only secret 0815' })
  // An item of Carol's alone.
  await createItem(t, carol, circleId, 'Carol ladder')
})
afterAll(() => t.close())

describe('GET /api/users/me/export', () => {
  it('asks for a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/users/me/export' })
    expect(res.statusCode).toBe(401)
  })

  it('answers a ZIP attachment named by the day, with the JSON, the pictures and a README', async () => {
    const { res, files, data } = await exportOf(alice)
    expect(res.headers['content-type']).toBe('application/zip')
    const day = new Date().toISOString().slice(0, 10)
    expect(res.headers['content-disposition']).toBe(`attachment; filename="circles-data-${day}.zip"`)
    expect(res.headers['cache-control']).toContain('no-store')

    const name = pictureUrl.split('/').pop()!
    const photoPath = `condition-photos/${conditionPhoto.url.split('/').pop()!}`
    expect(Object.keys(files).sort()).toEqual([
      'README.txt',
      'circles-data.json',
      photoPath,
      `pictures/${name}`,
    ])
    // The condition photo's bytes are the ones its block commits to.
    expect(createHash('sha256').update(files[photoPath]!).digest('hex')).toBe(conditionPhoto.sha256)
    const served = await t.app.inject({ method: 'GET', url: pictureUrl, headers: alice.auth })
    expect(Buffer.from(files[`pictures/${name}`]!).equals(served.rawPayload)).toBe(true)
    expect(strFromU8(files['README.txt']!)).toContain('circles-data.json')
    expect(strFromU8(files['README.txt']!)).not.toContain('deine Daten')

    expect(data.format).toBe('circles-data')
    expect(data.version).toBe(1)
    expect(data.profile).toMatchObject({ id: alice.user.id, name: 'Alice Export', email: alice.user.email })
    expect(data.noticePreferences).toEqual({
      handoverRequests: true,
      handoverAnswers: true,
      invitations: true,
      loanReminders: true,
      borrowRequests: true,
      loanChanges: true,
    })
    expect(data.memberships).toEqual([
      expect.objectContaining({
        circle: expect.objectContaining({ id: circleId, name: 'Workshop' }),
        role: 'ADMIN',
      }),
    ])
    // The drill she created (Carol holds it now), with its picture; not Carol's ladder.
    expect(data.items).toEqual([
      expect.objectContaining({
        id: drillId,
        name: 'Drill',
        createdByYou: true,
        heldByYou: false,
        holder: { id: carol.user.id, name: 'Carol Export' },
        circle: { id: circleId, name: 'Workshop' },
        picture: `pictures/${name}`,
      }),
    ])
    expect(data.handovers).toEqual([
      expect.objectContaining({
        yourRole: 'SENDER',
        status: 'CONFIRMED',
        requesterComment: 'Charger is in the box',
        secretMessage: 'Locker code 4711',
        receiverComment: 'Thanks, got it',
        receiver: { id: bob.user.id, name: 'Bob Export' },
        condition: {
          sender: { note: 'Scratch on the grip', photos: [photoPath] },
          receiver: { note: null, photos: [] },
          asDescribed: false,
        },
      }),
    ])
    expect(data.activities.length).toBeGreaterThan(0)
  })

  it('holds nothing secret: no password, hash, token or another pair’s secret message', async () => {
    const { text } = await exportOf(alice)
    expect(text).not.toContain('Carol only secret 0815')
    expect(text).not.toContain(DEFAULT_PASSWORD)
    expect(text).not.toMatch(/\$argon2/)
    expect(text).not.toMatch(/passwordHash|sessionVersion|tokenHash|publicKey/)
    expect(text).not.toContain(alice.auth.authorization.slice('Bearer '.length))
  })

  it('gives the ledger blocks about the person, checkable against the signed checkpoint', async () => {
    const { data } = await exportOf(alice)
    expect(data.ledger.circles).toHaveLength(1)
    const [circle] = data.ledger.circles
    expect(circle!.circleId).toBe(circleId)
    // From Alice to Bob only: the block from Bob to Carol is not about her.
    expect(circle!.blocks.map((b) => [b.content.from.id, b.content.to.id])).toEqual([
      [alice.user.id, bob.user.id],
    ])
    const keys = data.ledger.keys.map(parseVerifierKey)
    const { checkpoint } = openCheckpoint(circle!.checkpoint!, keys, circle!.origin)
    expect(checkpoint.size).toBe(circle!.size)
    for (const block of circle!.blocks) {
      const leaf = Uint8Array.from(Buffer.from(block.leaf!, 'base64'))
      expect(Buffer.from(blockBytes(block.content as BlockContent)).equals(Buffer.from(leaf))).toBe(true)
      expect(toHex(leafHash(leaf))).toBe(block.hash)
      expect(
        verifyInclusion(
          block.height,
          checkpoint.size,
          leafHash(leaf),
          block.inclusionProof!.map(fromHex),
          checkpoint.rootHash,
        ),
      ).toBe(true)
    }
    // `circles-ledger verify-data` checks them offline, and finds a block changed after the fact.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'circles-data-'))
    const file = path.join(dir, 'circles-data.json')
    const printed: string[] = []
    await writeFile(file, JSON.stringify(data))
    expect(await cli(['verify-data', file], (text) => printed.push(text))).toBe(0)
    expect(JSON.parse(printed.join(''))).toMatchObject({ valid: true, circleCount: 1, blockCount: 1 })
    const renamed = structuredClone(data)
    const forged = { ...renamed.ledger.circles[0]!.blocks[0]!.content, item: { id: drillId, name: 'Hammer' } }
    renamed.ledger.circles[0]!.blocks[0]!.content = forged
    renamed.ledger.circles[0]!.blocks[0]!.leaf = Buffer.from(blockBytes(forged)).toString('base64')
    await writeFile(file, JSON.stringify(renamed))
    expect(await cli(['verify-data', file], () => undefined)).toBe(1)
    await rm(dir, { recursive: true, force: true })

    // The same lines as the circle's own export gives.
    const log = await t.app.inject({
      method: 'GET',
      url: `/api/ledger/${circleId}/export`,
      headers: alice.auth,
    })
    const exported = log.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; id?: string; hash?: string; leaf?: string })
      .find((line) => line.type === 'block' && line.id === circle!.blocks[0]!.id)
    expect(exported).toMatchObject({ hash: circle!.blocks[0]!.hash, leaf: circle!.blocks[0]!.leaf })
  })

  it('gives the receiver the secret meant for them and the sender their own, in German for a German account', async () => {
    const { files, data, text } = await exportOf(bob)
    expect(strFromU8(files['README.txt']!)).toContain('Circles: deine Daten')
    expect(strFromU8(files['README.txt']!)).toContain('Circles: your data')
    expect(data.profile.email).toBe(bob.user.email)
    expect(data.handovers.map((h) => [h.yourRole, h.secretMessage])).toEqual([
      ['RECEIVER', 'Locker code 4711'],
      ['SENDER', 'Carol only secret 0815'],
    ])
    // He held the drill, no longer: an item he neither created nor holds is not his data.
    expect(data.items).toEqual([])
    expect(data.ledger.circles[0]!.blocks).toHaveLength(2)
    expect(text).not.toContain(alice.user.email)
    // No picture without an item of his.
    expect(Object.keys(files).filter((f) => f.startsWith('pictures/'))).toEqual([])
  })

  it('carries the profile picture as avatar.webp and each passkey with its name', async () => {
    const dora = await signedIn(t, { name: 'Dora Export' })
    const form = multipart('image', {
      name: 'me.png',
      type: 'image/png',
      bytes: await pictureBytes('png', 400, 300),
    })
    const uploaded = await t.app.inject({
      method: 'PUT',
      url: '/api/users/me/avatar',
      headers: { ...dora.auth, ...form.headers },
      payload: form.payload,
    })
    expect(uploaded.statusCode, uploaded.body).toBe(200)
    const served = await t.app.inject({
      method: 'GET',
      url: uploaded.json().user.avatarUrl,
      headers: dora.auth,
    })
    const passkey = softwarePasskey()
    const options = (
      await t.app.inject({ method: 'GET', url: '/api/webauthn/register/options', headers: dora.auth })
    ).json()
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/webauthn/register/verify',
      headers: dora.auth,
      payload: { credential: passkey.register(options) },
    })
    expect(registered.statusCode, registered.body).toBe(200)

    const { data, files } = await exportOf(dora)
    expect(data.profile.avatar).toBe('avatar.webp')
    expect(Buffer.from(files['avatar.webp']!).equals(served.rawPayload)).toBe(true)
    expect(data.passkeys).toEqual([expect.objectContaining({ name: expect.any(String) })])
    expect(data.passkeys[0]!.name.length).toBeGreaterThan(0)
    expect(strFromU8(files['README.txt']!)).toContain('avatar.webp')
  })

  it('gives a person outside every circle only their own profile', async () => {
    const dave = await signedIn(t, { name: 'Dave Export' })
    const { data, text } = await exportOf(dave)
    expect(data.profile.id).toBe(dave.user.id)
    expect(data).toMatchObject({
      memberships: [],
      items: [],
      handovers: [],
      activities: [],
      passkeys: [],
      loans: [],
      borrowRequests: [],
      calendarFeed: null,
    })
    expect(data.ledger.circles).toEqual([])
    for (const other of [alice, bob, carol]) {
      expect(text).not.toContain(other.user.email)
      expect(text).not.toContain(other.user.name)
    }
  })

  it('names a picture the store no longer has as null instead of failing the download', async () => {
    const grace = await signedIn(t, { name: 'Grace Export' })
    const circle = await createCircle(t, grace, { name: 'Garden' })
    const hose = await createItem(t, grace, circle.id, 'Hose')
    const body = multipart('image', { name: 'hose.png', type: 'image/png', bytes: await pictureBytes('png') })
    const upload = await t.app.inject({
      method: 'POST',
      url: `/api/items/${hose.id}/image`,
      headers: { ...grace.auth, ...body.headers },
      payload: body.payload,
    })
    const file = (upload.json().imageUrl as string).split('/').pop()!
    if (t.database.kind === 'postgres')
      await t.database.db.execute(sql`delete from stored_files where name = ${file}`)
    else await rm(path.join(dataDir, 'uploads', file))

    const { files, data } = await exportOf(grace)
    expect(data.items).toEqual([expect.objectContaining({ id: hose.id, picture: null })])
    expect(Object.keys(files).sort()).toEqual(['README.txt', 'circles-data.json'])
  })

  it('streams over a real connection, a picture at a time, and lets a client go away halfway', async () => {
    const warnings: Error[] = []
    const onWarning = (warning: Error) => warnings.push(warning)
    process.on('warning', onWarning)
    try {
      const henry = await signedIn(t, { name: 'Henry Export' })
      const circle = await createCircle(t, henry, { name: 'Attic' })
      const jo = await signedIn(t, { name: 'Jo Export' })
      await addMember(t, henry, circle.id, jo)
      // Twelve items he created (a plan holds ten at once: he hands two on first).
      const names: string[] = []
      for (let i = 0; i < 12; i++) {
        const item = await createItem(t, henry, circle.id, `Box ${i}`)
        const body = multipart('image', {
          name: `box-${i}.jpg`,
          type: 'image/jpeg',
          bytes: await pictureBytes('jpeg', 400 + i, 300),
        })
        const upload = await t.app.inject({
          method: 'POST',
          url: `/api/items/${item.id}/image`,
          headers: { ...henry.auth, ...body.headers },
          payload: body.payload,
        })
        names.push(`pictures/${(upload.json().imageUrl as string).split('/').pop()}`)
        if (i < 2) await handOver(t, henry, jo, item.id, { completeOwnership: true })
      }
      const base = await t.app.listen({ host: '127.0.0.1', port: 0 })
      const url = `${base}/api/users/me/export`

      const whole = await fetch(url, { headers: henry.auth })
      expect(whole.status).toBe(200)
      // Streamed: no length known up front.
      expect(whole.headers.get('transfer-encoding')).toBe('chunked')
      expect(whole.headers.get('content-length')).toBeNull()
      const files = unzipSync(new Uint8Array(await whole.arrayBuffer()))
      // README first, the pictures in between, the JSON last (written once the pictures are known).
      expect(Object.keys(files)).toEqual(['README.txt', ...names, 'circles-data.json'])

      // A client that reads the first bytes and goes away.
      const leaving = new AbortController()
      const partial = await fetch(url, { headers: henry.auth, signal: leaving.signal })
      const reader = partial.body!.getReader()
      expect((await reader.read()).done).toBe(false)
      leaving.abort()
      await reader.cancel().catch(() => undefined)
      // The server carries on: the next download (the hour's third) is whole.
      const again = await fetch(url, { headers: henry.auth })
      expect(Object.keys(unzipSync(new Uint8Array(await again.arrayBuffer())))).toHaveLength(14)
      // One waiting picture at a time: no pile of abort listeners on the request's signal.
      expect(warnings.map((w) => w.message)).toEqual([])
    } finally {
      process.off('warning', onWarning)
    }
  })

  it('allows 3 downloads an hour per account, then answers 429 with the reason and when to retry', async () => {
    const erin = await signedIn(t, { name: 'Erin Export' })
    for (let i = 0; i < 3; i++) await exportOf(erin)
    const refused = await t.app.inject({ method: 'GET', url: '/api/users/me/export', headers: erin.auth })
    expect(refused.statusCode).toBe(429)
    expect(refused.json()).toEqual({
      message: MESSAGES.dataExportTooMany,
      code: 'RATE_LIMITED',
      key: 'dataExportTooMany',
      retryAfter: expect.any(Number),
    })
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    // Another account's count is its own.
    const frank = await signedIn(t, { name: 'Frank Export' })
    await exportOf(frank)
  })
})

describe('lending in the export (issue 26)', () => {
  const DAY = 86_400_000
  const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString()
  const call = (who: SignedIn, method: 'POST' | 'PUT', url: string, payload: object = {}) =>
    t.app.inject({ method, url, headers: who.auth, payload })

  it('holds the loans lent or borrowed, their wishes and reminders, the own asks and the calendar feed; nothing of others', async () => {
    const erin = await signedIn(t, { name: 'Erin Lender' })
    const fred = await signedIn(t, { name: 'Fred Borrower' })
    const gina = await signedIn(t, { name: 'Gina Other' })
    const circle = await createCircle(t, erin, { name: 'Lending street' })
    await addMember(t, erin, circle.id, fred)
    await addMember(t, erin, circle.id, gina)

    // Erin lends Fred her saw; Fred wishes for a later date, with a message.
    const saw = await createItem(t, erin, circle.id, 'Saw')
    const dueAt = inDays(7)
    const lent = await pendingHandover(t, erin, fred, saw.id, { kind: 'LOAN', dueAt })
    const confirmed = await answerHandover(t, fred, lent.id, 'CONFIRMED')
    const sawLoanId = confirmed.json().handover.loanId as string
    const wish = await call(fred, 'POST', `/api/loans/${sawLoanId}/extensions`, {
      dueAt: inDays(10),
      message: 'fred-wish-7731',
    })
    expect(wish.statusCode, wish.body).toBe(201)
    // Gina waits for the saw; Fred asks for Erin's ladder and is declined with a reason.
    const ginaAsk = await call(gina, 'POST', `/api/items/${saw.id}/borrow-requests`, {
      wishedUntil: inDays(20),
      message: 'gina-ask-5512',
    })
    expect(ginaAsk.statusCode).toBe(201)
    const ladder = await createItem(t, erin, circle.id, 'Ladder')
    const fredAsk = await call(fred, 'POST', `/api/items/${ladder.id}/borrow-requests`, {
      wishedUntil: inDays(5),
      message: 'fred-ask-9904',
    })
    expect(fredAsk.statusCode).toBe(201)
    const askId = fredAsk.json().borrowRequest.id as string
    await call(erin, 'PUT', `/api/borrow-requests/${askId}`, {
      status: 'DECLINED',
      reason: 'erin-reason-3310',
    })

    // An older loan of Fred's, overdue, and one between Erin and Gina: the scan sends their reminders.
    const old = await insertLoan(t, {
      lender: erin,
      borrower: fred,
      circleId: circle.id,
      dueAt: new Date(Date.now() - 2 * DAY),
      itemName: 'Wheelbarrow',
    })
    const others = await insertLoan(t, {
      lender: erin,
      borrower: gina,
      circleId: circle.id,
      dueAt: new Date(Date.now() - 2 * DAY),
      itemName: 'Gina tent 6620',
    })
    await t.app.loanReminders.scan()
    // Fred's calendar feed.
    const feedUrl = (await call(fred, 'POST', '/api/users/me/calendar')).json().url as string
    const feedToken = feedUrl.split('/').pop()!.replace('.ics', '')

    const fredExport = await exportOf(fred)
    const f = fredExport.data
    expect(f.loans).toEqual([
      expect.objectContaining({
        id: old.loan.id,
        yourRole: 'BORROWER',
        item: { id: old.item.id, name: 'Wheelbarrow' },
        lender: { id: erin.user.id, name: 'Erin Lender' },
        borrower: { id: fred.user.id, name: 'Fred Borrower' },
        status: 'ACTIVE',
        extensions: [],
        reminders: [expect.objectContaining({ kind: 'OVERDUE_1' })],
      }),
      expect.objectContaining({
        id: sawLoanId,
        yourRole: 'BORROWER',
        item: { id: saw.id, name: 'Saw' },
        circle: { id: circle.id, name: 'Lending street' },
        status: 'ACTIVE',
        dueAt: new Date(dueAt).toISOString(),
        returnedAt: null,
        recalledAt: null,
        extensions: [
          expect.objectContaining({ dueAt: inDaysIso(wish), message: 'fred-wish-7731', status: 'PENDING' }),
        ],
        reminders: [],
      }),
    ])
    expect(f.borrowRequests).toEqual([
      expect.objectContaining({
        id: askId,
        item: { id: ladder.id, name: 'Ladder' },
        owner: { id: erin.user.id, name: 'Erin Lender' },
        message: 'fred-ask-9904',
        status: 'DECLINED',
        declineReason: 'erin-reason-3310',
      }),
    ])
    expect(f.calendarFeed).toEqual({ createdAt: expect.any(String) })
    expect(fredExport.text).not.toContain(feedToken)
    expect(fredExport.text).not.toContain('gina-ask-5512')
    // (The tent itself is in Fred's feed: NEW_ITEM, as every item of his circles.)
    expect(fredExport.text).not.toContain(others.loan.id)
    expect(strFromU8(fredExport.files['README.txt']!)).toMatch(
      /loans:.*\n.*\n.*borrowRequests:.*\n.*calendarFeed:/,
    )

    // Erin: the loans she lent (the lender's overdue notice only), none of the asks made to her.
    const e = (await exportOf(erin)).data
    expect(e.loans.map((l) => [l.item.name, l.yourRole, l.reminders.map((r) => r.kind)])).toEqual([
      ['Wheelbarrow', 'LENDER', ['LENDER_OVERDUE']],
      ['Gina tent 6620', 'LENDER', ['LENDER_OVERDUE']],
      ['Saw', 'LENDER', []],
    ])
    expect(e.loans[2]!.extensions[0]!.message).toBe('fred-wish-7731')
    expect(e.borrowRequests).toEqual([])
    expect(e.calendarFeed).toBeNull()
  })
})

/** The date a wish was made for, as the API answered it. */
function inDaysIso(res: { json(): { extension: { dueAt: string } } }) {
  return res.json().extension.dueAt
}
