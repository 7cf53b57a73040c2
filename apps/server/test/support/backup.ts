/** Instances as server.ts starts them, for the backup tests (backup*.test.ts). */
import { createHash, randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import { PGlite } from '@electric-sql/pglite'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { expect, inject } from 'vitest'
import { buildApp } from '../../src/app'
import { loadConfig } from '../../src/config'
import { type Database, openDatabase, pgliteDataDir, pgliteExtensions } from '../../src/db/client'
import { migratePostgres } from '../../src/db/migrate'
import { ledgerSigner } from '../../src/lib/ledger-signer'
import { loadOrCreateSecret } from '../../src/lib/secrets'
import type { SignedIn } from './circles'
import { TEST_PUBLIC_URL, type TestApp } from './test-app'

export const postgresUrl = process.env.DATABASE_URL
const created: string[] = []
const temporary: string[] = []

export async function tempDir(prefix: string) {
  const dir = await mkdtemp(path.join(os.tmpdir(), `circles-backup-${prefix}-`))
  temporary.push(dir)
  return dir
}

/** A new, empty PostgreSQL database on the test server (dropped after the file). */
export async function emptyDatabase(): Promise<string> {
  const name = `hbackup_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: postgresUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  created.push(name)
  const url = new URL(postgresUrl!)
  url.pathname = `/${name}`
  return url.toString()
}

/**
 * An empty, migrated embedded database in DATA_DIR, as a server leaves it after its first start, from
 * the suite's template (PGlite's initdb costs seconds, tens of them on a busy machine).
 */
export async function emptyEmbedded(dataDir: string) {
  await mkdir(dataDir, { recursive: true })
  const template = await readFile(inject('pgliteTemplate'))
  const client = await PGlite.create({
    dataDir: pgliteDataDir(dataDir),
    loadDataDir: new Blob([template]),
    extensions: pgliteExtensions,
  })
  await client.close()
}

export interface Instance {
  app: FastifyInstance
  database: Database
  dataDir: string
  env: Record<string, string>
  close(): Promise<void>
}

/**
 * The app as server.ts starts it: its database (DATA_DIR/db, or PostgreSQL), its session secret and
 * ledger key from DATA_DIR (generated on first start), the pictures on disk or in stored_files.
 */
export async function startInstance(dataDir: string, databaseUrl?: string): Promise<Instance> {
  const env: Record<string, string> = {
    PUBLIC_URL: TEST_PUBLIC_URL,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RATE_LIMITS: 'off',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  }
  const config = loadConfig(env)
  if (databaseUrl) await migratePostgres(databaseUrl)
  else if (!(await stat(pgliteDataDir(dataDir)).catch(() => null))) await emptyEmbedded(dataDir)
  const database = await openDatabase(config)
  const jwtSecret = await loadOrCreateSecret(dataDir, 'jwt-secret')
  const ledgerKey = ledgerSigner(config.publicUrl, await loadOrCreateSecret(dataDir, 'ledger-signing-key'))
  const app = await buildApp({
    config,
    database,
    jwtSecret,
    ledgerKey,
    webDir: null,
    mailTransport: { kind: 'logged', send: async () => {}, close() {} },
  })
  await app.ready()
  return {
    app,
    database,
    dataDir,
    env,
    async close() {
      await app.close()
      await database.close()
    },
  }
}

export interface Person {
  email: string
  password: string
}

export async function signIn(app: FastifyInstance, person: Person): Promise<SignedIn> {
  const res = await app.inject({ method: 'POST', url: '/api/users/login', payload: person })
  expect(res.statusCode, res.body).toBe(200)
  const { token, user } = res.json()
  return { user: { ...user, password: person.password }, auth: { authorization: `Bearer ${token}` } }
}

export const asTestApp = (instance: Instance) => instance as unknown as TestApp

/** A copy of a backup file with its uncompressed lines changed and its trailer made to match again. */
export async function rewritten(file: string, change: (lines: Record<string, unknown>[]) => void) {
  const lines = gunzipSync(await readFile(file))
    .toString('utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
  const trailer = lines.pop()! as { counts: { tables: Record<string, number> }; sha256: string }
  change(lines)
  // The counts follow what `change` left: a table it removed is gone from them too.
  const tables: Record<string, number> = {}
  let table: string | undefined
  for (const line of lines) {
    if (line.kind === 'table') tables[(table = line.name as string)] = 0
    else if (line.kind === 'row') tables[table!]! += 1
    else table = undefined
  }
  trailer.counts.tables = tables
  const body = lines.map((line) => `${JSON.stringify(line)}\n`).join('')
  trailer.sha256 = createHash('sha256').update(body).digest('hex')
  const out = path.join(await tempDir('edited'), 'edited.circles-backup')
  await writeFile(out, gzipSync(`${body}${JSON.stringify(trailer)}\n`))
  return out
}

/** Removes the temporary directories and drops the databases the file made. */
export async function cleanUp() {
  for (const dir of temporary) await rm(dir, { recursive: true, force: true })
  if (created.length === 0) return
  const admin = new pg.Client({ connectionString: postgresUrl })
  await admin.connect()
  for (const name of created) await admin.query(`drop database if exists ${name} with (force)`)
  await admin.end()
}
