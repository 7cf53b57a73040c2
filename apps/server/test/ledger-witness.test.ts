import { randomUUID } from 'node:crypto'
import {
  cosignaturesOf,
  formatCheckpoint,
  openCheckpoint,
  openCosignedNote,
  parseCheckpoint,
  parseCosignerKey,
  parseNote,
  parseVerifierKey,
  signCheckpoint,
} from '@circles/ledger'
import { LIMITS, MESSAGES } from '@circles/shared'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ledgerCosignatures, witnessKeys } from '../src/db/schema'
import { ledgerSigner } from '../src/lib/ledger-signer'
import { type SignedIn, addMember, createCircle, signedIn } from './support/circles'
import { createItem, handOver } from './support/handovers'
import { connectAs, listen, tokenOf } from './support/sockets'
import { type TestApp, TEST_PUBLIC_URL, createTestApp } from './support/test-app'
import {
  currentCheckpoint,
  nowSeconds,
  submitCosignature,
  witnessDevice,
  witnessKeyPair,
} from './support/witness'

/** Issue 29 (docs/decisions/0059): members' devices as witnesses of their circle's log. */
let t: TestApp
const logLines: string[] = []
const signer = ledgerSigner(TEST_PUBLIC_URL, 'witness test key')
beforeAll(async () => {
  // Our own key, to sign a second history below; the log lines, to see the split view reported.
  t = await createTestApp({ ledgerKey: signer, logStream: { write: (line: string) => logLines.push(line) } })
})
afterAll(() => t.close())

const keys = () => signer.verifierKeys.map(parseVerifierKey)
const register = (who: SignedIn, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/ledger/witness-keys', headers: who.auth, payload })
const myKeys = async (who: SignedIn) =>
  (await t.app.inject({ url: '/api/ledger/witness-keys', headers: who.auth })).json().witnessKeys as {
    deviceId: string
  }[]

/** A circle of Ida (admin) and Ben with `n` blocks. */
async function circleWith(n: number) {
  const ida = await signedIn(t, { name: 'Ida' })
  const ben = await signedIn(t, { name: 'Ben' })
  const circle = await createCircle(t, ida)
  await addMember(t, ida, circle.id, ben)
  for (let i = 0; i < n; i++) await handOver(t, ida, ben, (await createItem(t, ida, circle.id, `T${i}`)).id)
  return { ida, ben, circle }
}

function expectError(res: { statusCode: number; json(): unknown }, status: number, message: string) {
  expect(res.statusCode, JSON.stringify(res.json())).toBe(status)
  expect(res.json()).toMatchObject({ message })
}

describe('witness keys', () => {
  it('registers a device key under a name of the account and device, once per device', async () => {
    const ida = await signedIn(t)
    const deviceId = randomUUID()
    const pair = witnessKeyPair()
    const res = await register(ida, { deviceId, publicKey: pair.base64 })
    expect(res.statusCode).toBe(200)
    const { witnessKey } = res.json()
    expect(witnessKey.name).toBe(`localhost:3000/witness/${ida.user.id}/${deviceId}`)
    expect(parseCosignerKey(witnessKey.verifierKey).publicKey).toEqual(pair.publicKey)
    // The same again is the same key; another key for the device replaces it.
    expect((await register(ida, { deviceId, publicKey: pair.base64 })).json()).toEqual(res.json())
    const other = witnessKeyPair()
    const replaced = await register(ida, { deviceId, publicKey: other.base64 })
    expect(replaced.json().witnessKey.verifierKey).not.toBe(witnessKey.verifierKey)
    expect(await myKeys(ida)).toHaveLength(1)
  })

  it('refuses a key that is no usable Ed25519 point, and a key another device holds', async () => {
    const [ida, ben] = [await signedIn(t), await signedIn(t)]
    const identity = Buffer.alloc(32)
    identity[0] = 1
    expectError(
      await register(ida, { deviceId: randomUUID(), publicKey: identity.toString('base64') }),
      400,
      MESSAGES.witnessKeyInvalid,
    )
    expectError(
      await register(ida, { deviceId: randomUUID(), publicKey: 'AAAA' }),
      400,
      MESSAGES.witnessKeyInvalid,
    )
    const pair = witnessKeyPair()
    expect((await register(ida, { deviceId: randomUUID(), publicKey: pair.base64 })).statusCode).toBe(200)
    expectError(
      await register(ben, { deviceId: randomUUID(), publicKey: pair.base64 }),
      409,
      MESSAGES.witnessKeyTaken,
    )
    expectError(
      await register(ida, { deviceId: randomUUID(), publicKey: pair.base64 }),
      409,
      MESSAGES.witnessKeyTaken,
    )
  })

  it(`keeps ${LIMITS.witnessKeysPerAccount} devices per account: a new one replaces the one unused longest`, async () => {
    const { ida, circle } = await circleWith(1)
    const devices: Awaited<ReturnType<typeof witnessDevice>>[] = []
    for (let i = 0; i < LIMITS.witnessKeysPerAccount; i++) devices.push(await witnessDevice(t, ida))
    // The first device cosigned, so it was used more recently than the second, registered after it.
    const note = await currentCheckpoint(t, ida, circle.id)
    const cosigned = await submitCosignature(t, ida, circle.id, {
      checkpoint: note,
      cosignature: devices[0]!.cosign(note),
    })
    expect(cosigned.statusCode).toBe(200)
    const extra = { deviceId: randomUUID(), publicKey: witnessKeyPair().base64 }
    expect((await register(ida, extra)).statusCode).toBe(200)
    const left = (await myKeys(ida)).map((k) => k.deviceId)
    expect(left).toHaveLength(LIMITS.witnessKeysPerAccount)
    expect(left).toContain(extra.deviceId)
    expect(left).toContain(devices[0]!.deviceId)
    expect(left).not.toContain(devices[1]!.deviceId)
    // A device's new key replaces its own, never another's.
    const renewed = await register(ida, {
      deviceId: devices[2]!.deviceId,
      publicKey: witnessKeyPair().base64,
    })
    expect(renewed.statusCode).toBe(200)
    expect(await myKeys(ida)).toHaveLength(LIMITS.witnessKeysPerAccount)
    // The replaced device registers again at its next check (and replaces the next unused one).
    const back = await register(ida, { deviceId: devices[1]!.deviceId, publicKey: witnessKeyPair().base64 })
    expect(back.statusCode).toBe(200)
    expect((await myKeys(ida)).map((k) => k.deviceId)).not.toContain(devices[3]!.deviceId)
    // Removing a device frees a place; removing it again is not found.
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/ledger/witness-keys/${devices[4]!.deviceId}`,
      headers: ida.auth,
    })
    expect(removed.statusCode).toBe(200)
    expect(removed.json().witnessKeys).toHaveLength(LIMITS.witnessKeysPerAccount - 1)
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/ledger/witness-keys/${devices[4]!.deviceId}`,
      headers: ida.auth,
    })
    expectError(again, 404, MESSAGES.witnessKeyNotFound)
  })

  it("lists the account's keys with the device's label and its last kept cosignature", async () => {
    const { ida, circle } = await circleWith(1)
    const phone = await register(ida, { deviceId: randomUUID(), publicKey: witnessKeyPair().base64 })
    const chrome = await t.app.inject({
      method: 'POST',
      url: '/api/ledger/witness-keys',
      headers: {
        ...ida.auth,
        'user-agent':
          'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36',
      },
      payload: { deviceId: randomUUID(), publicKey: witnessKeyPair().base64 },
    })
    expect(phone.json().witnessKey).toMatchObject({ label: null, lastCosignedAt: null })
    expect(chrome.json().witnessKey).toMatchObject({ label: 'Chrome on Linux', lastCosignedAt: null })
    const device = await witnessDevice(t, ida)
    const note = await currentCheckpoint(t, ida, circle.id)
    const before = Date.now()
    await submitCosignature(t, ida, circle.id, { checkpoint: note, cosignature: device.cosign(note) })
    const listed = (await t.app.inject({ url: '/api/ledger/witness-keys', headers: ida.auth })).json()
      .witnessKeys as { deviceId: string; lastCosignedAt: string | null; createdAt: string }[]
    const used = listed.find((k) => k.deviceId === device.deviceId)!
    expect(Date.parse(used.lastCosignedAt!)).toBeGreaterThanOrEqual(before - 1000)
    expect(listed.filter((k) => k.lastCosignedAt === null)).toHaveLength(2)
  })
})

describe('cosignatures', () => {
  it("stores members' cosignatures and serves the checkpoint with them; the log's key still opens it", async () => {
    const { ida, ben, circle } = await circleWith(2)
    const [idaPhone, benLaptop] = [await witnessDevice(t, ida), await witnessDevice(t, ben)]
    const note = await currentCheckpoint(t, ida, circle.id)
    const idaLine = idaPhone.cosign(note)
    const answered = await submitCosignature(t, ida, circle.id, { checkpoint: note, cosignature: idaLine })
    expect(answered.statusCode, answered.body).toBe(200)
    expect(answered.json().checkpoint).toBe(`${note}${idaLine}\n`)
    // Ben sends only the text he checked, and his line with its newline.
    const benLine = benLaptop.cosign(note)
    const text = parseNote(note).text
    expect(
      (await submitCosignature(t, ben, circle.id, { checkpoint: text, cosignature: `${benLine}\n` }))
        .statusCode,
    ).toBe(200)
    const served = await currentCheckpoint(t, ben, circle.id)
    expect(served).toBe(`${note}${idaLine}\n${benLine}\n`)
    // A reader that knows only the server's key (the web app today) opens it as before.
    expect(openCheckpoint(served, keys(), `localhost:3000/circle/${circle.id}`).checkpoint.size).toBe(2)
    // A device that knows the members' keys checks their cosignatures.
    const witnesses = await t.app.inject({ url: `/api/ledger/${circle.id}/witnesses`, headers: ben.auth })
    expect(witnesses.statusCode).toBe(200)
    const known = witnesses.json().witnesses as {
      userId: string
      memberName: string
      name: string
      verifierKey: string
    }[]
    expect(known.map((w) => w.userId).sort()).toEqual([ida.user.id, ben.user.id].sort())
    // Each key with its member's name: what the split-view alarm says (docs/decisions/0064).
    expect(known.find((w) => w.userId === ben.user.id)?.memberName).toBe('Ben')
    const cosigners = known.map((w) => parseCosignerKey(w.verifierKey))
    expect(openCosignedNote(served, keys(), cosigners).cosignedBy).toHaveLength(2)
    // Sent again: kept once.
    await submitCosignature(t, ida, circle.id, { checkpoint: note, cosignature: idaPhone.cosign(note, 1) })
    expect(await currentCheckpoint(t, ida, circle.id)).toBe(served)
  })

  it("gives a circle's and an item's blocks the newest checkpoint with its cosignatures (docs/decisions/0066)", async () => {
    const { ida, ben, circle } = await circleWith(2)
    const list = async (url: string) => {
      const res = await t.app.inject({ url: `/api/blockchain${url}`, headers: ben.auth })
      expect(res.statusCode, res.body).toBe(200)
      return res.json() as {
        blocks: { content: { height: number; item: { id: string } } }[]
        checkpoint?: string
      }
    }
    const idaPhone = await witnessDevice(t, ida)
    const note = await currentCheckpoint(t, ida, circle.id)
    await submitCosignature(t, ida, circle.id, { checkpoint: note, cosignature: idaPhone.cosign(note) })
    const served = await currentCheckpoint(t, ben, circle.id)
    expect(served).not.toBe(note)
    const ofCircle = await list(`/circle/${circle.id}`)
    expect(ofCircle.checkpoint).toBe(served)
    expect(openCheckpoint(served, keys()).checkpoint.size).toBe(ofCircle.blocks.length)
    expect((await list(`/item/${ofCircle.blocks[0]!.content.item.id}`)).checkpoint).toBe(served)
    // The list of every circle names no one checkpoint.
    expect((await list('')).checkpoint).toBeUndefined()
    // After an append the list's checkpoint holds the new block.
    await handOver(t, ida, ben, (await createItem(t, ida, circle.id, 'T2')).id)
    const after = await list(`/circle/${circle.id}`)
    expect(after.blocks.map((b) => b.content.height)).toEqual([2, 1, 0])
    expect(after.checkpoint).toBe(await currentCheckpoint(t, ben, circle.id))
    expect(openCheckpoint(after.checkpoint!, keys()).checkpoint.size).toBe(3)
    // A circle with no block yet: the empty log's checkpoint, as GET …/checkpoint signs it.
    const empty = await createCircle(t, ida)
    const none = (await t.app.inject({ url: `/api/blockchain/circle/${empty.id}`, headers: ida.auth })).json()
    expect(none).toEqual({ blocks: [], checkpoint: await currentCheckpoint(t, ida, empty.id) })
    expect(openCheckpoint(none.checkpoint, keys()).checkpoint.size).toBe(0)
  })

  it('keeps a cosignature on an older checkpoint with that checkpoint, not the newest', async () => {
    const { ida, ben, circle } = await circleWith(1)
    const device = await witnessDevice(t, ida)
    const first = await currentCheckpoint(t, ida, circle.id)
    await handOver(t, ida, ben, (await createItem(t, ida, circle.id)).id)
    const res = await submitCosignature(t, ida, circle.id, {
      checkpoint: first,
      cosignature: device.cosign(first),
    })
    expect(res.statusCode).toBe(200)
    expect(parseCheckpoint(parseNote(res.json().checkpoint).text).size).toBe(1)
    const key = parseCosignerKey(device.verifierKey)
    const newest = await currentCheckpoint(t, ida, circle.id)
    expect(cosignaturesOf(newest, [key])).toEqual([])
    // A proof's checkpoint of size 1 carries it: how a device reads the cosignatures of an older size.
    const proof = await t.app.inject({
      url: `/api/ledger/${circle.id}/proof/inclusion?index=0&size=1`,
      headers: ida.auth,
    })
    expect(cosignaturesOf(proof.json().checkpoint, [key])).toHaveLength(1)
  })

  it('refuses what is not a valid cosignature of the caller on a checkpoint the server signed', async () => {
    const { ida, ben, circle } = await circleWith(2)
    const [idaPhone, benLaptop] = [await witnessDevice(t, ida), await witnessDevice(t, ben)]
    const note = await currentCheckpoint(t, ida, circle.id)
    const text = parseNote(note).text
    const checkpoint = parseCheckpoint(text)
    const post = (who: SignedIn, body: { checkpoint: string; cosignature: string }) =>
      submitCosignature(t, who, circle.id, body)

    expectError(
      await post(ida, { checkpoint: note, cosignature: 'not a line' }),
      400,
      MESSAGES.cosignatureMalformed,
    )
    // A plain note signature is no cosignature.
    const plain = note.trimEnd().split('\n').at(-1)!
    expectError(await post(ida, { checkpoint: note, cosignature: plain }), 400, MESSAGES.cosignatureMalformed)
    // Ben's line, sent by Ida.
    const benLine = benLaptop.cosign(note)
    expectError(
      await post(ida, { checkpoint: note, cosignature: benLine }),
      403,
      MESSAGES.cosignatureUnknownKey,
    )
    // Another root at the same size, another circle's origin, a size never signed.
    const forked = formatCheckpoint({ ...checkpoint, rootHash: new Uint8Array(32) })
    expectError(
      await post(ida, { checkpoint: forked, cosignature: idaPhone.cosign(forked) }),
      409,
      MESSAGES.cosignatureWrongCheckpoint,
    )
    const elsewhere = formatCheckpoint({ ...checkpoint, origin: `localhost:3000/circle/${randomUUID()}` })
    expectError(
      await post(ida, { checkpoint: elsewhere, cosignature: idaPhone.cosign(elsewhere) }),
      409,
      MESSAGES.cosignatureWrongCheckpoint,
    )
    expectError(
      await post(ida, { checkpoint: 'garbage', cosignature: idaPhone.cosign(note) }),
      409,
      MESSAGES.cosignatureWrongCheckpoint,
    )
    const later = formatCheckpoint({ ...checkpoint, size: 99 })
    expectError(
      await post(ida, { checkpoint: later, cosignature: idaPhone.cosign(later) }),
      404,
      MESSAGES.ledgerNoSuchCheckpoint,
    )
    // Signed over another text, sent with the right one; and a time an hour ahead.
    expectError(
      await post(ida, { checkpoint: note, cosignature: idaPhone.cosign(forked) }),
      400,
      MESSAGES.cosignatureInvalid,
    )
    expectError(
      await post(ida, { checkpoint: note, cosignature: idaPhone.cosign(note, nowSeconds() + 3600) }),
      400,
      MESSAGES.cosignatureFromFuture,
    )
    expect(await currentCheckpoint(t, ida, circle.id)).toBe(note)
  })

  it('reports a second history the server signed at the same size (split view), sizes only', async () => {
    const { ida, circle } = await circleWith(1)
    const device = await witnessDevice(t, ida)
    const note = await currentCheckpoint(t, ida, circle.id)
    const other = signCheckpoint(
      { ...parseCheckpoint(parseNote(note).text), rootHash: new Uint8Array(32) },
      signer,
    )
    const res = await submitCosignature(t, ida, circle.id, {
      checkpoint: other,
      cosignature: device.cosign(other),
    })
    expectError(res, 409, MESSAGES.cosignatureWrongCheckpoint)
    const reported = logLines.filter((line) => line.includes('split view'))
    expect(reported).toHaveLength(1)
    expect(JSON.parse(reported[0]!)).toMatchObject({ circleId: circle.id, size: 1 })
    expect(reported[0]).not.toContain(parseNote(other).text.split('\n')[2])
  })

  it("gives outsiders the 404 of a foreign circle, and drops a device's lines with its key", async () => {
    const { ida, circle } = await circleWith(1)
    const olga = await signedIn(t, { name: 'Olga' })
    const olgaPhone = await witnessDevice(t, olga)
    const idaPhone = await witnessDevice(t, ida)
    const note = await currentCheckpoint(t, ida, circle.id)
    expectError(
      await submitCosignature(t, olga, circle.id, { checkpoint: note, cosignature: olgaPhone.cosign(note) }),
      404,
      MESSAGES.notFound,
    )
    expectError(
      await t.app.inject({ url: `/api/ledger/${circle.id}/witnesses`, headers: olga.auth }),
      404,
      MESSAGES.notFound,
    )
    await submitCosignature(t, ida, circle.id, { checkpoint: note, cosignature: idaPhone.cosign(note) })
    expect(await currentCheckpoint(t, ida, circle.id)).not.toBe(note)
    await t.app.inject({
      method: 'DELETE',
      url: `/api/ledger/witness-keys/${idaPhone.deviceId}`,
      headers: ida.auth,
    })
    expect(await currentCheckpoint(t, ida, circle.id)).toBe(note)
  })

  it("takes a deleted account's keys and cosignatures with it", async () => {
    const { ida, ben, circle } = await circleWith(1)
    const benPhone = await witnessDevice(t, ben)
    const note = await currentCheckpoint(t, ida, circle.id)
    await submitCosignature(t, ben, circle.id, { checkpoint: note, cosignature: benPhone.cosign(note) })
    const stored = () =>
      t.database.db.select().from(ledgerCosignatures).where(eq(ledgerCosignatures.circleId, circle.id))
    expect(await stored()).toHaveLength(1)
    const deleted = await t.app.inject({
      method: 'POST',
      url: '/api/users/me/delete',
      headers: ben.auth,
      payload: { password: ben.user.password },
    })
    expect(deleted.statusCode, deleted.body).toBe(200)
    const left = await t.database.db.select().from(witnessKeys).where(eq(witnessKeys.userId, ben.user.id))
    expect(left).toEqual([])
    expect(await stored()).toEqual([])
  })

  it("tells the circle's members live that a cosignature arrived, once, and nobody else", async () => {
    const { ida, ben, circle } = await circleWith(1)
    const olga = await signedIn(t, { name: 'Olga' })
    const url = await listen(t)
    const [b, o] = [await connectAs(url, tokenOf(ben)), await connectAs(url, tokenOf(olga))]
    try {
      const phone = await witnessDevice(t, ida)
      const note = await currentCheckpoint(t, ida, circle.id)
      const line = phone.cosign(note)
      await submitCosignature(t, ida, circle.id, { checkpoint: note, cosignature: line })
      expect(await b.next('ledger_cosigned')).toEqual({ circleId: circle.id, size: 1 })
      // Sent again: nothing new, no event.
      await submitCosignature(t, ida, circle.id, { checkpoint: note, cosignature: line })
      await createItem(t, ida, circle.id)
      await b.next('item_update')
      const cosigned = (l: typeof b) => l.received.filter((r) => r.event === 'ledger_cosigned')
      expect(cosigned(b)).toHaveLength(1)
      expect(cosigned(o)).toEqual([])
    } finally {
      b.close()
      o.close()
    }
  })
})
