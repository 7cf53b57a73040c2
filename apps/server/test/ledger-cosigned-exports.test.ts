import { randomUUID } from 'node:crypto'
import { mkdtemp } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {
  openCheckpoint,
  parseCheckpoint,
  parseNote,
  parseVerifierKey,
  verifyDataExport,
  verifyExport,
} from '@circles/ledger'
import { strFromU8, unzipSync } from 'fflate'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { ledgerSigner } from '../src/lib/ledger-signer'
import type { DataExport } from '../src/modules/export/export-format'
import { type SignedIn, addMember, createCircle, signedIn } from './support/circles'
import { createItem, handOver } from './support/handovers'
import { type TestApp, TEST_JWT_SECRET, TEST_PUBLIC_URL, createTestApp } from './support/test-app'
import { currentCheckpoint, submitCosignature, witnessDevice, witnessKeyPair } from './support/witness'

/**
 * Issue 29, the rest (docs/decisions/0064): the circle export and "Download my data" carry each
 * checkpoint with its cosignatures and the cosigners' public keys, checked offline by circles-ledger; a
 * log keeps its origin whatever instance (PUBLIC_URL) or LEDGER_ORIGIN signs it next.
 */
let t: TestApp
const signer = ledgerSigner(TEST_PUBLIC_URL, 'cosigned exports test key')
beforeAll(async () => {
  t = await createTestApp({ ledgerKey: signer })
})
afterAll(() => t.close())

async function circleWith(n: number, app: TestApp = t) {
  const ida = await signedIn(app, { name: 'Ida Witness' })
  const ben = await signedIn(app, { name: 'Ben Witness' })
  const circle = await createCircle(app, ida)
  await addMember(app, ida, circle.id, ben)
  for (let i = 0; i < n; i++)
    await handOver(app, ida, ben, (await createItem(app, ida, circle.id, `T${i}`)).id)
  return { ida, ben, circle }
}

async function cosignNewest(
  who: SignedIn,
  circleId: string,
  device: Awaited<ReturnType<typeof witnessDevice>>,
) {
  const note = await currentCheckpoint(t, who, circleId)
  const res = await submitCosignature(t, who, circleId, {
    checkpoint: note,
    cosignature: device.cosign(note),
  })
  expect(res.statusCode, res.body).toBe(200)
  return note
}

async function circleExport(who: SignedIn, circleId: string, app: FastifyInstance = t.app) {
  const res = await app.inject({ url: `/api/ledger/${circleId}/export`, headers: who.auth })
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200)
  return res.body
}

async function dataExport(who: SignedIn) {
  const res = await t.app.inject({ url: '/api/users/me/export', headers: who.auth })
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200)
  const text = strFromU8(unzipSync(new Uint8Array(res.rawPayload))['circles-data.json']!)
  return { text, data: JSON.parse(text) as DataExport }
}

describe('the circle export with cosignatures', () => {
  it('carries every checkpoint with its cosignature lines and the cosigners’ keys; the CLI check reports them', async () => {
    const { ida, ben, circle } = await circleWith(2)
    const [idaPhone, benLaptop] = [await witnessDevice(t, ida), await witnessDevice(t, ben)]
    const two = await cosignNewest(ida, circle.id, idaPhone)
    await cosignNewest(ben, circle.id, benLaptop)
    await handOver(t, ida, ben, (await createItem(t, ida, circle.id, 'Later')).id)
    await cosignNewest(ben, circle.id, benLaptop)

    const text = await circleExport(ida, circle.id)
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; size?: number; note?: string; cosigners?: string[] })
    expect(lines[0]!.cosigners?.sort()).toEqual([idaPhone.verifierKey, benLaptop.verifierKey].sort())
    const checkpoints = new Map(lines.filter((l) => l.type === 'checkpoint').map((l) => [l.size, l.note!]))
    expect(checkpoints.get(2)).toContain(idaPhone.name)
    expect(checkpoints.get(2)).toContain(benLaptop.name)
    expect(parseNote(checkpoints.get(2)!).text).toBe(parseNote(two).text)
    expect(checkpoints.get(1)).not.toContain('/witness/')
    // The log's key alone still opens every checkpoint: readers that know no cosigner are unaffected.
    for (const note of checkpoints.values())
      expect(() => openCheckpoint(note, signer.verifierKeys.map(parseVerifierKey))).not.toThrow()

    const checked = verifyExport(text, { keys: signer.verifierKeys })
    expect(checked).toMatchObject({ valid: true, problems: [] })
    expect(checked.cosignatures.problems).toEqual([])
    const byName = new Map(checked.cosignatures.cosigners.map((c) => [c.name, c]))
    expect(byName.get(idaPhone.name)).toMatchObject({ status: 'valid', valid: 1, largestSize: 2 })
    expect(byName.get(benLaptop.name)).toMatchObject({ status: 'valid', valid: 2, largestSize: 3 })
  })

  it('reports a cosignature that does not verify without making the ledger invalid', async () => {
    const { ida, circle } = await circleWith(1)
    const phone = await witnessDevice(t, ida)
    await cosignNewest(ida, circle.id, phone)
    const text = await circleExport(ida, circle.id)
    // One byte of the device's signature changed in the file: its line no longer verifies.
    const line = phone.cosign(await currentCheckpoint(t, ida, circle.id), 1)
    const stored = text.split('\n').find((l) => l.includes(phone.name) && l.includes('"checkpoint"'))!
    const blob = JSON.parse(stored)
      .note.split('\n')
      .find((l: string) => l.includes(phone.name))
      .split(' ')[2]
    const bytes = Buffer.from(blob, 'base64')
    bytes[bytes.length - 1]! ^= 1
    const tampered = text.replace(blob, bytes.toString('base64'))
    expect(line).not.toBe(blob)
    const checked = verifyExport(tampered, { keys: signer.verifierKeys })
    expect(checked.valid).toBe(true)
    expect(checked.cosignatures.problems).toEqual([
      `checkpoint 1: the cosignature of ${phone.name} does not verify`,
    ])
    expect(checked.cosignatures.cosigners).toEqual([
      expect.objectContaining({ name: phone.name, status: 'invalid', invalid: 1, valid: 0 }),
    ])
  })
})

describe('"Download my data" with witness keys and cosignatures', () => {
  it('holds the account’s witness keys (public only) and each circle’s checkpoint with its cosignatures', async () => {
    const { ida, ben, circle } = await circleWith(2)
    const safari = await t.app.inject({
      method: 'POST',
      url: '/api/ledger/witness-keys',
      headers: {
        ...ida.auth,
        'user-agent': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Version/17.0 Safari/605.1.15',
      },
      payload: { deviceId: randomUUID(), publicKey: witnessKeyPair().base64 },
    })
    expect(safari.statusCode).toBe(200)
    const phone = await witnessDevice(t, ida)
    const unused = await witnessDevice(t, ida)
    await cosignNewest(ida, circle.id, phone)
    await cosignNewest(ben, circle.id, await witnessDevice(t, ben))

    const { data, text } = await dataExport(ida)
    expect(data.witnessKeys).toHaveLength(3)
    expect(data.witnessKeys.find((k) => k.label !== null)).toMatchObject({
      label: 'Safari on macOS',
      cosignatureCount: 0,
    })
    const used = data.witnessKeys.find((k) => k.deviceId === phone.deviceId)!
    expect(used).toMatchObject({
      name: phone.name,
      verifierKey: phone.verifierKey,
      label: null,
      cosignatureCount: 1,
      circles: [{ id: circle.id, name: 'Makerspace', cosignatures: 1 }],
    })
    expect(used.lastCosignedAt).not.toBeNull()
    expect(data.witnessKeys.find((k) => k.deviceId === unused.deviceId)).toMatchObject({
      cosignatureCount: 0,
      circles: [],
      lastCosignedAt: null,
    })
    // Public material only: no field holds more than a verifier key does.
    expect(Object.keys(used).sort()).toEqual(
      [
        'circles',
        'cosignatureCount',
        'createdAt',
        'deviceId',
        'label',
        'lastCosignedAt',
        'name',
        'verifierKey',
      ].sort(),
    )

    const ledgerCircle = data.ledger.circles.find((c) => c.circleId === circle.id)!
    expect(ledgerCircle.checkpoint).toContain(phone.name)
    expect(ledgerCircle.cosigners).toHaveLength(2)
    const checked = verifyDataExport(text, { keys: signer.verifierKeys })
    expect(checked).toMatchObject({ valid: true, problems: [] })
    expect(checked.cosignatures.cosigners.map((c) => c.status)).toEqual(['valid', 'valid'])
  })
})

describe('the log’s origin (LEDGER_ORIGIN)', () => {
  it('names new logs and witness keys by LEDGER_ORIGIN; a bad value is refused at start', async () => {
    const other = await createTestApp({ env: { LEDGER_ORIGIN: 'circles.example.org/ledger' } })
    try {
      const { ida, circle } = await circleWith(1, other)
      const note = await currentCheckpoint(other, ida, circle.id)
      expect(parseCheckpoint(parseNote(note).text).origin).toBe(
        `circles.example.org/ledger/circle/${circle.id}`,
      )
      const deviceId = randomUUID()
      const res = await other.app.inject({
        method: 'POST',
        url: '/api/ledger/witness-keys',
        headers: ida.auth,
        payload: { deviceId, publicKey: witnessKeyPair().base64 },
      })
      expect(res.json().witnessKey.name).toBe(`circles.example.org/ledger/witness/${ida.user.id}/${deviceId}`)
    } finally {
      await other.close()
    }
    for (const bad of ['https://circles.example.org', 'circles example', 'a+b'])
      expect(() => loadConfig({ LEDGER_ORIGIN: bad }), bad).toThrow(/LEDGER_ORIGIN/)
  })

  it('an instance under another PUBLIC_URL keeps the log’s origin, takes its cosignatures and exports it verifying', async () => {
    const { ida, ben, circle } = await circleWith(2)
    const phone = await witnessDevice(t, ida)
    const origin = `localhost:3000/circle/${circle.id}`
    // The second instance: same database and signing key, another URL, no LEDGER_ORIGIN.
    const second = await buildApp({
      config: loadConfig({
        LOG_LEVEL: 'silent',
        PUBLIC_URL: 'https://other.example:8443',
        DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'circles-test-')),
      }),
      database: t.database,
      ledgerKey: signer,
      jwtSecret: TEST_JWT_SECRET,
      webDir: null,
    })
    try {
      await second.ready()
      // A cosignature on the checkpoint the first instance signed goes in through the second.
      const note = await currentCheckpoint(t, ida, circle.id)
      const res = await second.inject({
        method: 'POST',
        url: `/api/ledger/${circle.id}/cosignatures`,
        headers: ida.auth,
        payload: { checkpoint: note, cosignature: phone.cosign(note) },
      })
      expect(res.statusCode, res.body).toBe(200)
      // The second instance appends under the log's own origin.
      await handOver({ ...t, app: second }, ida, ben, (await createItem(t, ida, circle.id, 'Elsewhere')).id)
      const newest = await currentCheckpoint({ ...t, app: second }, ben, circle.id)
      expect(parseCheckpoint(parseNote(newest).text)).toMatchObject({ origin, size: 3 })
      const text = await circleExport(ida, circle.id, second)
      expect(JSON.parse(text.split('\n')[0]!).origin).toBe(origin)
      const checked = verifyExport(text, { keys: signer.verifierKeys })
      expect(checked).toMatchObject({ valid: true, problems: [], checkpoint: { size: 3 } })
      expect(checked.cosignatures.cosigners).toEqual([
        expect.objectContaining({ name: phone.name, status: 'valid', valid: 1 }),
      ])
    } finally {
      await second.close()
    }
  })
})
