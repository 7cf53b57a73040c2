import { ITEM_CODE_PATTERN } from '@circles/shared'
import { openCheckpoint, parseVerifierKey, verifyConsistency, type NoteKey } from '@circles/ledger'
import { spawn } from 'node:child_process'
import { createHash, createPrivateKey, sign } from 'node:crypto'
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { PGlite } from '@electric-sql/pglite'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { type Database, fromPglite, fromPostgres, pgliteDataDir } from '../src/db/client'
import { MigrationError, migratePglite, migratePostgres, migrationsFolder } from '../src/db/migrate'
import { ledgerSigner } from '../src/lib/ledger-signer'
import { loadOrCreateSecret } from '../src/lib/secrets'
import {
  RELEASE_DIR,
  type ReleaseFixture,
  copyReleaseFiles,
  dropPostgres,
  fingerprint,
  loadIntoPglite,
  loadIntoPostgres,
  releaseFixture,
} from './support/release-fixture'

/**
 * Issue 25, "Upgrades": the previous release's database with its data (fixtures/release-2026-11-26,
 * schema at migration 0010, v1 and v2 blocks, signed checkpoints, a passkey, pending handovers, outbox
 * rows) upgraded by this release's migrations, the function the server runs at start; then this
 * release's app on it. On PGlite, or PostgreSQL with DATABASE_URL.
 */
const adminUrl = process.env.DATABASE_URL
const PUBLIC_URL = 'http://localhost:3000'
const LAST_OF_RELEASE = '0010_departures_and_block_reason'
const serverRoot = fileURLToPath(new URL('..', import.meta.url))

type Query = (text: string) => Promise<{ rows: Record<string, unknown>[] }>

/** The release loaded into an empty database, with what migrates it and what reads it. */
interface Loaded {
  /** The PostgreSQL database's URL; absent on PGlite. */
  url?: string
  query: Query
  migrate(folder?: string): Promise<void>
  open(): Database
  close(): Promise<void>
}

async function loadRelease(dataDir?: string): Promise<Loaded> {
  if (!adminUrl) {
    const client: PGlite = await loadIntoPglite(dataDir)
    return {
      query: (text) => client.query(text),
      migrate: (folder) => migratePglite(client, folder),
      open: () => fromPglite(client),
      close: () => client.close(),
    }
  }
  const url = await loadIntoPostgres(adminUrl)
  const pool = new pg.Pool({ connectionString: url, max: 1 })
  return {
    url,
    query: (text) => pool.query(text),
    migrate: (folder) => migratePostgres(url, folder),
    open: () => fromPostgres(url, 4),
    async close() {
      await pool.end()
      await dropPostgres(adminUrl, url)
    },
  }
}

/** This release's migrations and one more after them that changes things and then fails. */
async function failingMigrations(dir: string) {
  await cp(migrationsFolder, dir, { recursive: true })
  const journalFile = path.join(dir, 'meta', '_journal.json')
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as {
    entries: { idx: number; version: string; when: number; tag: string; breakpoints: boolean }[]
  }
  const last = journal.entries.at(-1)!
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1, tag: '0099_fails' })
  await writeFile(journalFile, JSON.stringify(journal))
  await writeFile(
    path.join(dir, '0099_fails.sql'),
    [
      `ALTER TABLE "users" ADD COLUMN "upgrade_probe" text;`,
      `UPDATE "users" SET "name" = 'changed by a failed migration';`,
      `DELETE FROM "outbox";`,
      `SELECT 1 / 0;`,
    ].join('--> statement-breakpoint\n'),
  )
}

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest()

/** The fixture's passkey signs a sign-in challenge as its authenticator would (a raised counter). */
function passkeyAssertion(key: { id: string; privateKeyPem: string }, challenge: string, counter: number) {
  const count = Buffer.alloc(4)
  count.writeUInt32BE(counter)
  const authData = Buffer.concat([sha256('localhost'), Buffer.from([0x05]), count])
  const clientData = Buffer.from(
    JSON.stringify({ type: 'webauthn.get', challenge, origin: PUBLIC_URL, crossOrigin: false }),
  )
  const signature = sign(
    'sha256',
    Buffer.concat([authData, sha256(clientData)]),
    createPrivateKey(key.privateKeyPem),
  )
  return {
    id: key.id,
    rawId: key.id,
    type: 'public-key',
    response: {
      clientDataJSON: clientData.toString('base64url'),
      authenticatorData: authData.toString('base64url'),
      signature: signature.toString('base64url'),
    },
    clientExtensionResults: {},
    authenticatorAttachment: 'platform',
  }
}

describe('upgrading the previous release', () => {
  let release: ReleaseFixture
  let loaded: Loaded
  let dataDir: string
  let app: FastifyInstance
  let database: Database
  const tokens: Record<string, string> = {}

  beforeAll(async () => {
    release = await releaseFixture()
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'hupgrade-'))
    await copyReleaseFiles(dataDir, { uploads: !adminUrl })
    loaded = await loadRelease()
  })
  afterAll(async () => {
    await app?.close()
    if (adminUrl) await database?.close()
    await loaded?.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('loads the release as it was: at migration 0010, with v1 and v2 blocks (an automatic transfer among them)', async () => {
    const { rows } = await loaded.query('select count(*)::int as n from drizzle.__drizzle_migrations')
    expect(rows[0]!.n).toBe(11)
    const blocks = await loaded.query(
      `select version, kind, reason, count(*)::int as n from blocks group by 1, 2, 3 order by 1, 2`,
    )
    expect(blocks.rows).toEqual([
      { version: 1, kind: 'HANDOVER', reason: null, n: 3 },
      { version: 2, kind: 'AUTO_TRANSFER', reason: 'REMOVED', n: 1 },
      { version: 2, kind: 'HANDOVER', reason: null, n: 5 },
    ])
  })

  it("this release's migrations are dated in order (drizzle applies only those dated after the last applied)", async () => {
    const journal = JSON.parse(await readFile(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'))
    const whens = (journal.entries as { when: number }[]).map((e) => e.when)
    expect(whens).toEqual([...whens].sort((a, b) => a - b))
    expect(new Set(whens).size).toBe(whens.length)
  })

  it('a migration that fails halfway leaves the database exactly at the release before', async () => {
    const before = await fingerprint(loaded.query)
    const folder = await mkdtemp(path.join(os.tmpdir(), 'hupgrade-migrations-'))
    try {
      await failingMigrations(folder)
      const failed = loaded.migrate(folder)
      await expect(failed).rejects.toThrow(MigrationError)
      await expect(failed).rejects.toThrow(
        `none of this release's migrations was applied: the database is still at migration ${LAST_OF_RELEASE}. Cause: division by zero.`,
      )
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
    // Not only the failing one: 0011-0014 before it are gone too, and every row is as it was.
    expect(await fingerprint(loaded.query)).toEqual(before)
  })

  it("migrates to this release's schema, and a second run changes nothing", async () => {
    await loaded.migrate()
    const { rows } = await loaded.query('select count(*)::int as n from drizzle.__drizzle_migrations')
    const journal = JSON.parse(await readFile(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'))
    expect(rows[0]!.n).toBe(journal.entries.length)
    const once = await fingerprint(loaded.query)
    await loaded.migrate()
    expect(await fingerprint(loaded.query)).toEqual(once)

    database = loaded.open()
    const config = loadConfig({
      PUBLIC_URL,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ...(loaded.url ? { DATABASE_URL: loaded.url } : {}),
    })
    // The release's own secrets, read as the server reads them at start.
    const jwtSecret = await loadOrCreateSecret(dataDir, 'jwt-secret')
    const ledgerSecret = await loadOrCreateSecret(dataDir, 'ledger-signing-key')
    expect(jwtSecret).toBe((await readFile(path.join(RELEASE_DIR, 'jwt-secret'), 'utf8')).trim())
    app = await buildApp({
      config,
      database,
      jwtSecret,
      ledgerKey: ledgerSigner(config.publicUrl, ledgerSecret, config.ledgerPreviousKeys),
      webDir: null,
    })
    await app.ready()
  })

  const get = (who: string | null, url: string) =>
    app.inject({ method: 'GET', url, headers: who ? { authorization: `Bearer ${tokens[who]}` } : {} })

  it('the old users sign in with their passwords, and Ada with her passkey', async () => {
    for (const [key, user] of Object.entries(release.users)) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/users/login',
        payload: { email: user.email, password: user.password },
      })
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json().user).toMatchObject({ id: user.id, name: user.name })
      tokens[key] = res.json().token
    }
    const passkey = release.users.ada!.passkey!
    const options = await app.inject({
      method: 'POST',
      url: '/api/webauthn/login/options',
      payload: { email: release.users.ada!.email },
    })
    expect(options.statusCode, options.body).toBe(200)
    const { options: challenge, userId } = options.json()
    expect(challenge.allowCredentials.map((c: { id: string }) => c.id)).toEqual([passkey.id])
    const res = await app.inject({
      method: 'POST',
      url: '/api/webauthn/login/verify',
      payload: { credential: passkeyAssertion(passkey, challenge.challenge, passkey.counter + 1), userId },
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().user.id).toBe(release.users.ada!.id)
  })

  it('their circles, items and pictures are there', async () => {
    const circles = await get('ada', '/api/circles')
    expect(circles.statusCode).toBe(200)
    expect(
      circles
        .json()
        .circles.map((c: { circle: { name: string } }) => c.circle.name)
        .sort(),
    ).toEqual(['Garden', 'Makerspace'])
    const codes = new Set<string>()
    for (const item of Object.values(release.items)) {
      const res = await get('ada', `/api/items/${item.id}`)
      expect(res.statusCode, res.body).toBe(200)
      const { name, imageUrl, code } = res.json().item
      expect(name).toBe(item.name)
      // Migration 0017 gave every item of the release its label's code (issue 27), each its own.
      expect(code).toMatch(ITEM_CODE_PATTERN)
      codes.add(code)
      expect((await get('ada', `/api/items/by-code/${code}`)).json().item.id).toBe(item.id)
      if (!item.picture) {
        expect(imageUrl).toBeNull()
        continue
      }
      const picture = await get('ada', imageUrl)
      expect(picture.statusCode).toBe(200)
      const file = path.basename(new URL(imageUrl, PUBLIC_URL).pathname)
      expect(picture.rawPayload.equals(await readFile(path.join(RELEASE_DIR, 'uploads', file)))).toBe(true)
    }
    expect(codes.size).toBe(Object.values(release.items).length)
  })

  it("every ledger's old blocks still verify, and a new confirmation appends a v3 block consistent with the checkpoint signed before", async () => {
    const keys: NoteKey[] = ((await get(null, '/api/ledger/keys')).json().keys as string[]).map(
      parseVerifierKey,
    )
    for (const circle of Object.values(release.circles)) {
      const verify = await get('ada', `/api/blockchain/verify/${circle.id}`)
      expect(verify.json()).toMatchObject({
        valid: true,
        blockCount: circle.verify.blockCount,
        failingBlocks: [],
      })
      const blocks = (await get('ada', `/api/blockchain/circle/${circle.id}`)).json().blocks
      expect(blocks.map((b: { id: string; hash: string }) => ({ id: b.id, hash: b.hash }))).toEqual(
        circle.blocks.map((b) => ({ id: b.id, hash: b.hash })),
      )
      // The checkpoint the release signed still opens with the key this release publishes.
      expect(openCheckpoint(circle.checkpoint, keys).checkpoint.size).toBe(circle.blocks.length)
    }

    // Cleo confirms the ladder Ben asked her to take before the upgrade.
    const makerspace = release.circles.makerspace!
    const pending = release.pending[0]!
    const confirmed = await app.inject({
      method: 'PUT',
      url: `/api/handovers/${pending}/status`,
      headers: { authorization: `Bearer ${tokens.cleo}` },
      payload: { status: 'CONFIRMED' },
    })
    expect(confirmed.statusCode, confirmed.body).toBe(200)

    const { rows } = await loaded.query(
      `select version from blocks where circle_id = '${makerspace.id}' order by height desc limit 1`,
    )
    // The current encoding (v5 since issue 28) goes on from the older blocks.
    expect(rows[0]!.version).toBe(5)
    const verify = await get('ada', `/api/blockchain/verify/${makerspace.id}`)
    expect(verify.json()).toMatchObject({ valid: true, blockCount: makerspace.blocks.length + 1 })

    const before = openCheckpoint(makerspace.checkpoint, keys).checkpoint
    const after = openCheckpoint(
      (await get('ada', `/api/ledger/${makerspace.id}/checkpoint`)).json().checkpoint,
      keys,
    ).checkpoint
    expect(after.size).toBe(before.size + 1)
    const proof = (
      await get('ada', `/api/ledger/${makerspace.id}/proof/consistency?from=${before.size}&to=${after.size}`)
    ).json()
    const hashes = (proof.proof as string[]).map((h) => Uint8Array.from(Buffer.from(h, 'hex')))
    expect(verifyConsistency(before.size, after.size, before.rootHash, after.rootHash, hashes)).toBe(true)
  })

  it('refuses a database a newer release migrated (an older release started without the restore)', async () => {
    const { rows } = await loaded.query('select max(created_at) as last from drizzle.__drizzle_migrations')
    const newer = Number(rows[0]!.last) + 86_400_000
    await loaded.query(
      `insert into drizzle.__drizzle_migrations (hash, created_at) values ('a later release', ${newer})`,
    )
    try {
      const before = await fingerprint(loaded.query)
      await expect(loaded.migrate()).rejects.toThrow(
        `The database was migrated by a newer release of Circles (its last migration is dated ${new Date(newer).toISOString()}`,
      )
      expect(await fingerprint(loaded.query)).toEqual(before)
    } finally {
      await loaded.query(`delete from drizzle.__drizzle_migrations where created_at = ${newer}`)
    }
  })
})

/** The server itself, started on the release with a migration that cannot apply. */
function runServer(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: serverRoot,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', PUBLIC_URL, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.on('error', reject)
    child.on('exit', (code) => resolve({ code, output }))
  })
}

describe('a server whose migration fails', () => {
  // Real server processes (through tsx) on a loaded machine: well above the 30 s default.
  it(
    'refuses to start with a clear message, and leaves the data as it was',
    { timeout: 90_000 },
    async () => {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'hupgrade-server-'))
      try {
        await copyReleaseFiles(dataDir, { uploads: !adminUrl })
        const loaded = await loadRelease(adminUrl ? undefined : pgliteDataDir(dataDir))
        // Someone added the column migration 0012 adds: 0011 applies, then 0012 fails.
        await loaded.query('alter table users add column avatar_id text')
        const before = await fingerprint(loaded.query)
        let again = loaded
        try {
          if (!adminUrl) await loaded.close()
          const { url } = loaded
          const { code, output } = await runServer({
            DATA_DIR: dataDir,
            ...(url ? { DATABASE_URL: url } : {}),
          })
          expect(code).toBe(1)
          expect(output).toContain(
            `The database migration failed, and none of this release's migrations was applied: the database is still at migration ${LAST_OF_RELEASE}. Cause: column "avatar_id" of relation "users" already exists.`,
          )
          expect(output).not.toContain('Circles is running')
          if (!adminUrl) {
            const { PGlite } = await import('@electric-sql/pglite')
            const { pgliteExtensions } = await import('../src/db/client')
            const client = await PGlite.create({
              dataDir: pgliteDataDir(dataDir),
              extensions: pgliteExtensions,
            })
            again = { ...loaded, query: (text) => client.query(text), close: () => client.close() }
          }
          expect(await fingerprint(again.query)).toEqual(before)
        } finally {
          await again.close()
        }
      } finally {
        await rm(dataDir, { recursive: true, force: true })
      }
    },
  )
})
