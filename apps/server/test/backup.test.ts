/**
 * Issue 25: a backup of a populated instance restores into an empty data directory (PGlite run) and into
 * an empty PostgreSQL database (PostgreSQL run: from the embedded database, the documented move, and
 * from PostgreSQL), and the restored instance works: everyone signs in, every picture loads with the
 * same bytes, every circle's ledger verifies and its signed checkpoint is the one before, with the same
 * key, and the log grows consistently from it. Broken files and non-empty targets are refused, and
 * nothing is written.
 */
import { type NoteKey, hexToHash, openCheckpoint, parseVerifierKey, verifyConsistency } from '@circles/ledger'
import { createWriteStream } from 'node:fs'
import { readFile, readdir, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pgliteSnapshotSource } from '../src/backup/admin-socket'
import { main } from '../src/backup/cli'
import { BackupFileError, validateBackup } from '../src/backup/format'
import { RestoreRefusedError, restoreBackup } from '../src/backup/restore'
import { writeSnapshot } from '../src/backup/snapshot'
import { loadConfig } from '../src/config'
import {
  type Instance,
  type Person,
  asTestApp,
  cleanUp,
  emptyDatabase,
  emptyEmbedded,
  postgresUrl,
  rewritten,
  signIn,
  startInstance,
  tempDir,
} from './support/backup'
import { type SignedIn, addMember, createCircle } from './support/circles'
import { createUser } from './support/factories'
import { createItem, handOver, pendingHandover } from './support/handovers'
import { multipart, pictureBytes } from './support/images'
import { TEST_PUBLIC_URL } from './support/test-app'

/** What the restored instance must show again. */
interface World {
  people: Person[]
  /** Picture URL → its bytes and a reader allowed to see it. */
  pictures: Map<string, { bytes: Buffer; reader: Person }>
  circles: { id: string; reader: Person; giver: Person; taker: Person; itemId: string }[]
  checkpoints: Map<string, string>
  keys: NoteKey[]
}

/** Users, two circles, items with pictures, confirmed handovers (blocks, checkpoints), an avatar. */
async function populate(instance: Instance): Promise<World> {
  const t = asTestApp(instance)
  const people: Person[] = []
  const who: SignedIn[] = []
  for (const name of ['Ada', 'Ben', 'Cy', 'Dee']) {
    const user = await createUser(instance.database, { name })
    people.push({ email: user.email, password: user.password })
    who.push(await signIn(instance.app, people.at(-1)!))
  }
  const [ada, ben, cy, dee] = who as [SignedIn, SignedIn, SignedIn, SignedIn]
  const [pAda, pBen, , pDee] = people as [Person, Person, Person, Person]
  const pictures = new Map<string, { bytes: Buffer; reader: Person }>()
  const world: World = { people, pictures, circles: [], checkpoints: new Map(), keys: [] }

  const workshop = await createCircle(t, ada, { name: 'Workshop' })
  await addMember(t, ada, workshop.id, ben)
  await addMember(t, ada, workshop.id, cy)
  const garden = await createCircle(t, ben, { name: 'Garden' })
  await addMember(t, ben, garden.id, dee)

  const withPicture = async (
    owner: SignedIn,
    reader: Person,
    circleId: string,
    name: string,
    format: 'png' | 'jpeg' | 'webp',
  ) => {
    const item = await createItem(t, owner, circleId, name)
    const body = multipart('image', {
      name: `p.${format}`,
      type: `image/${format}`,
      bytes: await pictureBytes(format, 320, 240),
    })
    const res = await instance.app.inject({
      method: 'POST',
      url: `/api/items/${item.id}/image`,
      headers: { ...owner.auth, ...body.headers },
      payload: body.payload,
    })
    expect(res.statusCode, res.body).toBe(200)
    for (const url of [res.json().imageUrl, res.json().thumbnailUrl] as string[]) {
      const served = await instance.app.inject({ method: 'GET', url, headers: owner.auth })
      expect(served.statusCode).toBe(200)
      pictures.set(url, { bytes: served.rawPayload, reader })
    }
    return item
  }
  const drill = await withPicture(ada, pBen, workshop.id, 'Drill', 'png')
  const ladder = await withPicture(ben, pAda, workshop.id, 'Ladder', 'jpeg')
  const tent = await withPicture(ben, pDee, garden.id, 'Tent', 'webp')

  await handOver(t, ada, ben, drill.id)
  await handOver(t, ben, cy, drill.id)
  await handOver(t, ben, dee, tent.id)
  await pendingHandover(t, cy, ada, drill.id)
  world.circles.push({ id: workshop.id, reader: pAda, giver: pBen, taker: pAda, itemId: ladder.id })
  world.circles.push({ id: garden.id, reader: pBen, giver: pDee, taker: pBen, itemId: tent.id })

  const avatar = multipart('image', {
    name: 'me.png',
    type: 'image/png',
    bytes: await pictureBytes('png', 200, 200),
  })
  const res = await instance.app.inject({
    method: 'PUT',
    url: '/api/users/me/avatar',
    headers: { ...ada.auth, ...avatar.headers },
    payload: avatar.payload,
  })
  expect(res.statusCode, res.body).toBe(200)
  const avatarUrl = res.json().user.avatarUrl as string
  pictures.set(avatarUrl, {
    bytes: (await instance.app.inject({ method: 'GET', url: avatarUrl, headers: ada.auth })).rawPayload,
    reader: pAda,
  })

  world.keys = (await instance.app.inject({ method: 'GET', url: '/api/ledger/keys' }))
    .json()
    .keys.map(parseVerifierKey)
  for (const circle of world.circles) {
    const reader = await signIn(instance.app, circle.reader)
    const res = await instance.app.inject({
      method: 'GET',
      url: `/api/ledger/${circle.id}/checkpoint`,
      headers: reader.auth,
    })
    expect(res.statusCode).toBe(200)
    world.checkpoints.set(circle.id, res.json().checkpoint)
  }
  return world
}

/** Everything the issue asks of a restored instance. */
async function checkRestored(instance: Instance, world: World) {
  const t = asTestApp(instance)
  // Everyone signs in with their password (once each; the checks below use these sessions).
  const sessions = new Map<Person, SignedIn>()
  for (const person of world.people) sessions.set(person, await signIn(instance.app, person))
  const as = (person: Person) => sessions.get(person)!
  for (const [url, { bytes, reader }] of world.pictures) {
    const who = as(reader)
    const res = await instance.app.inject({ method: 'GET', url, headers: who.auth })
    expect(res.statusCode, url).toBe(200)
    expect(res.rawPayload.equals(bytes), url).toBe(true)
  }
  for (const circle of world.circles) {
    const reader = as(circle.reader)
    const verified = await instance.app.inject({
      method: 'GET',
      url: `/api/blockchain/verify/${circle.id}`,
      headers: reader.auth,
    })
    expect(verified.json()).toMatchObject({ valid: true })
    const before = openCheckpoint(world.checkpoints.get(circle.id)!, world.keys).checkpoint
    const res = await instance.app.inject({
      method: 'GET',
      url: `/api/ledger/${circle.id}/checkpoint`,
      headers: reader.auth,
    })
    // Signed by the same key (the one published before the backup), same size and root.
    const now = openCheckpoint(res.json().checkpoint, world.keys, before.origin).checkpoint
    expect(now.size).toBe(before.size)
    expect(Buffer.from(now.rootHash).equals(Buffer.from(before.rootHash))).toBe(true)

    // The log goes on from there: one more confirmed handover, and a proof that the old tree is its prefix.
    await handOver(t, as(circle.giver), as(circle.taker), circle.itemId)
    const proof = (
      await instance.app.inject({
        method: 'GET',
        url: `/api/ledger/${circle.id}/proof/consistency?from=${before.size}&to=${before.size + 1}`,
        headers: reader.auth,
      })
    ).json()
    const after = openCheckpoint(proof.checkpoint, world.keys, before.origin).checkpoint
    expect(after.size).toBe(before.size + 1)
    expect(
      verifyConsistency(before.size, after.size, before.rootHash, after.rootHash, proof.proof.map(hexToHash)),
    ).toBe(true)
  }
}

const sources: ('pglite' | 'postgres')[] = postgresUrl ? ['pglite', 'postgres'] : ['pglite']

afterAll(cleanUp)

describe.each(sources)('a backup of an instance on %s', (source) => {
  let file: string
  let world: World

  beforeAll(async () => {
    const dataDir = await tempDir('source')
    const instance = await startInstance(dataDir, source === 'postgres' ? await emptyDatabase() : undefined)
    world = await populate(instance)
    file = path.join(await tempDir('file'), 'circles.backup')
    if (source === 'postgres') {
      // The command itself: one REPEATABLE READ READ ONLY transaction, no pg_dump.
      expect(await main(['backup', file], instance.env)).toBe(0)
    } else {
      // What the running server answers on its socket, from its own connection.
      await writeSnapshot(
        pgliteSnapshotSource(loadConfig(instance.env), instance.database),
        createWriteStream(file),
      )
    }
    await instance.close()
  })

  it('is one private file whose every part checks out', async () => {
    if (source === 'postgres') expect((await stat(file)).mode & 0o777).toBe(0o600)
    const { header, trailer } = await validateBackup(file)
    expect(header).toMatchObject({ format: 'circles-backup', formatVersion: 1, database: source })
    expect(header.migrations.length).toBeGreaterThan(10)
    expect(trailer.counts.tables.users).toBe(4)
    expect(trailer.counts.tables.blocks).toBe(3)
    expect(trailer.counts.secrets).toBe(2)
    if (source === 'pglite') expect(trailer.counts.uploads).toBe(7)
    else expect(trailer.counts.tables.stored_files).toBe(7)
  })

  const targets: ('pglite' | 'postgres')[] = postgresUrl ? ['postgres'] : ['pglite']
  it.each(targets)('restores into an empty %s and the instance works as before', async (target) => {
    const dataDir = path.join(await tempDir('target'), 'data')
    const url = target === 'postgres' ? await emptyDatabase() : undefined
    if (!url) await emptyEmbedded(dataDir)
    const env = { PUBLIC_URL: TEST_PUBLIC_URL, DATA_DIR: dataDir, ...(url ? { DATABASE_URL: url } : {}) }
    expect(await main(['restore', file], env)).toBe(0)
    if (target === 'pglite') expect((await readdir(path.join(dataDir, 'uploads'))).length).toBe(7)
    expect((await stat(path.join(dataDir, 'ledger-signing-key'))).mode & 0o777).toBe(0o600)
    const restored = await startInstance(dataDir, url)
    try {
      await checkRestored(restored, world)
    } finally {
      await restored.close()
    }
    // A restored instance is no longer an empty target.
    const again = restoreBackup(file, { dataDir: url ? await tempDir('other') : dataDir, databaseUrl: url })
    await expect(again).rejects.toThrow(RestoreRefusedError)
    await expect(restoreBackup(file, { dataDir, databaseUrl: url })).rejects.toThrow(
      url ? /is not empty \(table \w+ has rows\)/ : /already holds pictures/,
    )
    if (!url) {
      // With no server running, the command takes the data directory lock and opens the database itself.
      const again = path.join(await tempDir('file'), 'again.backup')
      expect(await main(['backup', again], env)).toBe(0)
      expect((await stat(again)).mode & 0o777).toBe(0o600)
      const { header, trailer } = await validateBackup(again)
      expect(header.database).toBe('pglite')
      expect(trailer.counts.tables.users).toBe(4)
      expect(trailer.counts.tables.blocks).toBe(5)
      expect(trailer.counts.uploads).toBe(7)
      // An existing file is never overwritten.
      expect(await main(['backup', again], env)).toBe(1)
    }
  })

  it('refuses a truncated file, one altered byte and a newer release, and writes nothing', async () => {
    const bytes = await readFile(file)
    const dir = await tempDir('broken')
    const truncated = path.join(dir, 'truncated')
    await writeFile(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.6)))
    const altered = path.join(dir, 'altered')
    const copy = Buffer.from(bytes)
    const at = Math.floor(copy.length / 2)
    copy[at] = copy[at]! ^ 0x40
    await writeFile(altered, copy)
    const newer = await rewritten(file, (lines) => {
      const header = lines[0] as { migrations: { createdAt: number; hash: string }[] }
      header.migrations.push({ createdAt: 4_102_444_800_000, hash: 'f'.repeat(64) })
    })
    // Same bytes, but a row count in the trailer that does not match.
    const miscounted = await rewritten(file, () => {})
    const trailerless = await readFile(miscounted)
    const text = gunzipSync(trailerless).toString('utf8').replace('"users":4', '"users":5')
    await writeFile(miscounted, gzipSync(text))

    const target = path.join(dir, 'target')
    const url = postgresUrl ? await emptyDatabase() : undefined
    for (const [broken, message] of [
      [truncated, /truncated/],
      [altered, /damaged|truncated/],
      [miscounted, /counts do not match/],
      [newer, /newer release of Circles/],
    ] as const) {
      const refused = restoreBackup(broken, { dataDir: target, databaseUrl: url })
      await expect(refused).rejects.toThrow(message)
      await expect(restoreBackup(broken, { dataDir: target })).rejects.toThrow(message)
      // Nothing written: no data directory, and no table in the PostgreSQL database.
      expect(await stat(target).catch(() => null)).toBeNull()
      if (url) {
        const client = new pg.Client({ connectionString: url })
        await client.connect()
        const { rows } = await client.query(
          `select count(*)::int as n from pg_tables where schemaname = 'public'`,
        )
        await client.end()
        expect(rows[0].n).toBe(0)
      }
    }
    await expect(restoreBackup(truncated, { dataDir: target })).rejects.toThrow(BackupFileError)
  })
})
