import { randomBytes } from 'node:crypto'
import { cp, mkdir, readFile, readdir } from 'node:fs/promises'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { pgliteExtensions } from '../../src/db/client'

/** The previous release on record, with data (fixtures/release-2026-11-26/README.md). */
export const RELEASE_DIR = path.join(import.meta.dirname, '..', 'fixtures', 'release-2026-11-26')

export interface ReleaseFixture {
  users: Record<
    string,
    {
      id: string
      name: string
      email: string
      password: string
      passkey?: { id: string; privateKeyPem: string; counter: number }
    }
  >
  circles: Record<
    string,
    {
      id: string
      name: string
      checkpoint: string
      verify: { valid: boolean; blockCount: number }
      blocks: { id: string; version: number; hash: string }[]
    }
  >
  items: Record<string, { id: string; name: string; picture?: boolean }>
  pending: string[]
}

export async function releaseFixture(): Promise<ReleaseFixture> {
  return JSON.parse(await readFile(path.join(RELEASE_DIR, 'fixture.json'), 'utf8')) as ReleaseFixture
}

/** The dump as SQL either database runs (pg_dump's plain format without psql meta-commands). */
async function dumpSql() {
  const text = await readFile(path.join(RELEASE_DIR, 'database.sql'), 'utf8')
  // The dump empties search_path for its session; the app's own connection must not inherit that.
  return `${text}\nRESET search_path;\n`
}

const CONTENT_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
}

/**
 * The release's files into DATA_DIR: its secrets, and on the embedded database its pictures under
 * uploads/ (with PostgreSQL they live in stored_files instead, loaded by loadIntoPostgres).
 */
export async function copyReleaseFiles(dataDir: string, { uploads }: { uploads: boolean }) {
  await mkdir(dataDir, { recursive: true })
  for (const name of ['jwt-secret', 'ledger-signing-key']) {
    await cp(path.join(RELEASE_DIR, name), path.join(dataDir, name))
  }
  if (uploads) await cp(path.join(RELEASE_DIR, 'uploads'), path.join(dataDir, 'uploads'), { recursive: true })
}

let pgliteRelease: Promise<Blob> | undefined

/**
 * An embedded database holding the release (in memory, or in `dataDir` as the server keeps it). The
 * dump is loaded once per test file and copied from there: each initdb costs seconds.
 */
export async function loadIntoPglite(dataDir?: string): Promise<PGlite> {
  pgliteRelease ??= (async () => {
    const client = await PGlite.create({ extensions: pgliteExtensions })
    await client.exec(await dumpSql())
    const tarball = await client.dumpDataDir('none')
    await client.close()
    return tarball
  })()
  return PGlite.create({ dataDir, loadDataDir: await pgliteRelease, extensions: pgliteExtensions })
}

/** A new PostgreSQL database on `adminUrl`'s server holding the release; answers its URL. */
export async function loadIntoPostgres(adminUrl: string, prefix = 'circles_upgrade'): Promise<string> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const client = new pg.Client({ connectionString: url.toString() })
  await client.connect()
  try {
    await client.query(await dumpSql())
    for (const file of await readdir(path.join(RELEASE_DIR, 'uploads'))) {
      const bytes = await readFile(path.join(RELEASE_DIR, 'uploads', file))
      await client.query(
        'insert into stored_files (name, content_type, size, bytes) values ($1, $2, $3, $4)',
        [file, CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream', bytes.length, bytes],
      )
    }
  } finally {
    await client.end()
  }
  return url.toString()
}

export async function dropPostgres(adminUrl: string, url: string) {
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`drop database if exists ${new URL(url).pathname.slice(1)} with (force)`)
  await admin.end()
}

type Query = (text: string) => Promise<{ rows: Record<string, unknown>[] }>

/**
 * What a database holds, as one comparable value: its tables, columns, indexes, constraints,
 * triggers and functions, and a digest of every table's rows (drizzle's migrations table included).
 */
export async function fingerprint(query: Query): Promise<Record<string, unknown>> {
  const schemas = `('public', 'drizzle')`
  const rows = async (text: string) => (await query(text)).rows
  const tables = await rows(
    `select table_schema as s, table_name as t from information_schema.tables
     where table_schema in ${schemas} and table_type = 'BASE TABLE' order by 1, 2`,
  )
  const data: Record<string, unknown> = {}
  for (const { s, t } of tables as { s: string; t: string }[]) {
    const [digest] = await rows(
      `select count(*)::int as n, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as md5
       from "${s}"."${t}" x`,
    )
    data[`${s}.${t}`] = digest
  }
  return {
    columns: await rows(
      `select table_schema, table_name, column_name, data_type, is_nullable, column_default
       from information_schema.columns where table_schema in ${schemas} order by 1, 2, 3`,
    ),
    indexes: await rows(`select indexdef from pg_indexes where schemaname in ${schemas} order by 1`),
    constraints: await rows(
      `select conrelid::regclass::text as rel, conname, pg_get_constraintdef(oid) as def from pg_constraint
       where connamespace in (select oid from pg_namespace where nspname in ${schemas}) order by 1, 2`,
    ),
    triggers: await rows(
      `select tgrelid::regclass::text as rel, tgname from pg_trigger where not tgisinternal order by 1, 2`,
    ),
    functions: await rows(
      `select proname, md5(prosrc) as src from pg_proc
       where pronamespace = 'public'::regnamespace and prolang = (select oid from pg_language where lanname = 'plpgsql')
       order by 1`,
    ),
    data,
  }
}
