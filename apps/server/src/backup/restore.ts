import { randomBytes } from 'node:crypto'
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as runPgMigrations } from 'drizzle-orm/node-postgres/migrator'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as runPgliteMigrations } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { pgliteDataDir, pgliteExtensions } from '../db/client'
import { migratePglite, migratePostgres, migrationsFolder } from '../db/migrate'
import { holdDataDir } from '../lib/data-dir-lock'
import { type FileLine, type Header, type TableLine, type Trailer, readBackup } from './format'
import {
  APPLIED_MIGRATIONS_SQL,
  TABLE_EXISTS_SQL,
  knownMigrations,
  levelOf,
  migrationsUpTo,
  toApplied,
} from './migrations'
import { quoteIdent } from './snapshot'

/** The target refuses the restore (not empty, a newer backup, …); nothing was written. */
export class RestoreRefusedError extends Error {}

export interface RestoreTarget {
  dataDir: string
  databaseUrl?: string
}

export interface RestoreSummary {
  header: Header
  trailer: Trailer
  target: 'pglite' | 'postgres'
}

type Params = unknown[]
interface Target {
  kind: 'pglite' | 'postgres'
  query(text: string, params?: Params): Promise<Record<string, unknown>[]>
  migrateTo(folder: string): Promise<void>
  migrateToCurrent(): Promise<void>
  close(): Promise<void>
}

const CONTENT_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
}

async function openPostgres(url: string): Promise<Target> {
  const client = new pg.Client({ connectionString: url })
  client.on('error', () => {})
  await client.connect()
  return {
    kind: 'postgres',
    query: async (text, params) => (await client.query(text, params)).rows,
    migrateTo: (folder) => runPgMigrations(drizzlePg({ client }), { migrationsFolder: folder }),
    migrateToCurrent: () => migratePostgres(url),
    close: () => client.end(),
  }
}

async function openPglite(dataDir: string): Promise<Target> {
  const client = await PGlite.create({ dataDir: pgliteDataDir(dataDir), extensions: pgliteExtensions })
  return {
    kind: 'pglite',
    query: async (text, params) => (await client.query<Record<string, unknown>>(text, params)).rows,
    migrateTo: (folder) => runPgliteMigrations(drizzlePglite({ client }), { migrationsFolder: folder }),
    migrateToCurrent: () => migratePglite(client),
    close: () => client.close(),
  }
}

const exists = (file: string) =>
  readFile(file).then(
    (bytes) => bytes,
    () => null,
  )
const entries = (dir: string) => readdir(dir).catch(() => [] as string[])

/** Reads the whole file once, checking it; keeps the header and the secret files. */
async function firstPass(file: string) {
  const reader = readBackup(file)
  let header: Header | undefined
  const secrets = new Map<string, Buffer>()
  for (;;) {
    const next = await reader.next()
    if (next.done) return { header: header!, trailer: next.value, secrets }
    const entry = next.value
    if (entry.kind === 'header') header = entry
    if (entry.kind === 'file' && entry.area === 'secrets')
      secrets.set(entry.name, Buffer.from(entry.data, 'base64'))
  }
}

/** The target database's migration level, or a refusal if any table has rows. */
async function checkDatabaseEmpty(target: Target, database: string): Promise<number> {
  const tables = await target.query(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind in ('r', 'p') order by c.relname`,
  )
  for (const { name } of tables) {
    const [row] = await target.query(`select exists (select 1 from ${quoteIdent(String(name))}) as taken`)
    if (row?.taken === true) {
      throw new RestoreRefusedError(
        `${database} is not empty (table ${String(name)} has rows). A backup is restored into an empty ` +
          'target only: a new PostgreSQL database, or a new DATA_DIR for the embedded one.',
      )
    }
  }
  const [present] = await target.query(TABLE_EXISTS_SQL)
  const applied = present?.present === true ? toApplied(await target.query(APPLIED_MIGRATIONS_SQL)) : []
  if (tables.length > 0 && applied.length === 0) {
    throw new RestoreRefusedError(
      `${database} holds tables that are not Circles' (${tables.map((t) => t.name).join(', ')}). ` +
        'Restore into a new, empty database.',
    )
  }
  return applied.length
}

/** The embedded target: DATA_DIR without pictures (its database is checked like PostgreSQL's). */
async function checkUploadsEmpty(dataDir: string) {
  if ((await entries(path.join(dataDir, 'uploads'))).length > 0) {
    throw new RestoreRefusedError(
      `The data directory ${dataDir} already holds pictures (uploads/). A backup is restored into an empty ` +
        'data directory only: point DATA_DIR at a new directory, or move this one away.',
    )
  }
}

/**
 * Restores a backup file into an empty target: PostgreSQL when `databaseUrl` is given (its pictures go
 * into stored_files), else the embedded database in DATA_DIR (pictures into DATA_DIR/uploads). The
 * whole file is checked before anything is written; the rows go in in one transaction at the backup's
 * migration level, then this release's migrations run; files are written to temporary names and
 * renamed once the rows are committed.
 */
export async function restoreBackup(file: string, to: RestoreTarget): Promise<RestoreSummary> {
  const { header, trailer, secrets } = await firstPass(file)
  const journal = await knownMigrations()
  let level: number
  try {
    level = levelOf(header.migrations, journal, header.appVersion)
  } catch (error) {
    throw new RestoreRefusedError((error as Error).message)
  }

  // DATA_DIR's secret files: absent, or the backup's own (a second restore of the same keys).
  for (const [name, bytes] of secrets) {
    const present = await exists(path.join(to.dataDir, name))
    if (present && !present.equals(bytes)) {
      throw new RestoreRefusedError(
        `The data directory ${to.dataDir} already has a different ${name}. Restoring would replace it; ` +
          'restore into an empty data directory, or move that file away first.',
      )
    }
  }

  let target: Target
  let description: string
  // An embedded database this restore creates is removed again if it fails.
  let createdDatabase = false
  if (to.databaseUrl) {
    const where = new URL(to.databaseUrl)
    description = `The database ${where.host}${where.pathname}`
    target = await openPostgres(to.databaseUrl)
  } else {
    await mkdir(to.dataDir, { recursive: true })
    holdDataDir(to.dataDir, { role: 'restore', action: 'restore a backup' })
    await checkUploadsEmpty(to.dataDir)
    description = `The embedded database in ${to.dataDir}`
    createdDatabase = (await entries(pgliteDataDir(to.dataDir))).length === 0
    target = await openPglite(to.dataDir)
  }
  try {
    const targetLevel = await checkDatabaseEmpty(target, description)
    if (targetLevel > level) {
      throw new RestoreRefusedError(
        `${description} is already migrated further (${targetLevel} migrations) than the backup ` +
          `(${level}, Circles ${header.appVersion}). Restore into a new, empty database.`,
      )
    }
  } catch (error) {
    await target.close()
    if (createdDatabase) await rm(pgliteDataDir(to.dataDir), { recursive: true, force: true })
    throw error
  }

  const written: string[] = []
  let committed = false
  try {
    const folder = level < journal.entries.length ? await migrationsUpTo(level) : undefined
    try {
      await target.migrateTo(folder ?? migrationsFolder)
    } finally {
      if (folder) await rm(folder, { recursive: true, force: true })
    }

    const pending: { final: string; temporary: string }[] = []
    const temporaryFile = async (dir: string, name: string, bytes: Buffer, mode: number) => {
      await mkdir(dir, { recursive: true })
      const temporary = path.join(dir, `.${name}.${randomBytes(6).toString('hex')}.part`)
      written.push(temporary)
      await writeFile(temporary, bytes, { flag: 'wx', mode })
      pending.push({ final: path.join(dir, name), temporary })
    }
    const uploads = path.join(to.dataDir, 'uploads')
    const putPicture = async (name: string, bytes: Buffer, contentType?: string) => {
      if (target.kind === 'pglite') return temporaryFile(uploads, name, bytes, 0o644)
      await target.query(
        'insert into stored_files (name, content_type, size, bytes) values ($1, $2, $3, $4)',
        [
          name,
          contentType ?? CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream',
          bytes.length,
          bytes,
        ],
      )
    }

    await target.query('begin')
    await target.query(`set local datestyle = 'ISO, YMD'`)
    await target.query(`set local intervalstyle = 'postgres'`)
    let table: TableLine | undefined
    let batch: (string | null)[][] = []
    let batchBytes = 0
    const flush = async () => {
      if (!table || batch.length === 0) return
      const t = table
      const params: (string | null)[] = []
      const tuples = batch.map(
        (values) =>
          `(${values
            .map((value, i) => {
              params.push(value)
              return t.types[i] === 'bytea'
                ? `decode($${params.length}, 'base64')`
                : `$${params.length}::${t.types[i]}`
            })
            .join(', ')})`,
      )
      await target.query(
        `insert into ${quoteIdent(t.name)} (${t.columns.map(quoteIdent).join(', ')}) overriding system value values ${tuples.join(', ')}`,
        params,
      )
      batch = []
      batchBytes = 0
    }

    const reader = readBackup(file)
    for (;;) {
      const next = await reader.next()
      if (next.done) break
      const entry = next.value
      if (entry.kind === 'table') {
        await flush()
        table = entry
      } else if (entry.kind === 'row') {
        // PostgreSQL's pictures go to DATA_DIR/uploads when the target is the embedded database.
        if (table!.name === 'stored_files' && target.kind === 'pglite') {
          const name = entry.values[table!.columns.indexOf('name')]!
          const bytes = Buffer.from(entry.values[table!.columns.indexOf('bytes')]!, 'base64')
          await putPicture(name, bytes)
          continue
        }
        batch.push(entry.values)
        batchBytes += entry.values.reduce((sum, v) => sum + (v?.length ?? 0), 0)
        if (batch.length * table!.columns.length > 20_000 || batchBytes > 4_000_000) await flush()
      } else if (entry.kind === 'file') {
        await flush()
        table = undefined
        const bytes = Buffer.from((entry as FileLine).data, 'base64')
        if (entry.area === 'uploads') await putPicture(entry.name, bytes)
        else if (!(await exists(path.join(to.dataDir, entry.name)))) {
          await temporaryFile(to.dataDir, entry.name, bytes, 0o600)
        }
      }
    }
    await flush()
    await resetSequences(target)
    await target.query('commit')
    committed = true
    for (const { temporary, final } of pending) {
      await rename(temporary, final)
    }
    await target.migrateToCurrent()
    return { header, trailer, target: target.kind }
  } catch (error) {
    if (committed) throw error
    await target.query('rollback').catch(() => {})
    await Promise.all(written.map((f) => rm(f, { force: true })))
    if (createdDatabase) {
      await target.close().catch(() => {})
      await rm(pgliteDataDir(to.dataDir), { recursive: true, force: true })
      target = { ...target, close: async () => {} }
    }
    throw error
  } finally {
    await target.close().catch(() => {})
  }
}

/** Serial and identity columns continue after the restored rows. */
async function resetSequences(target: Target) {
  const columns = await target.query(`
    select c.relname as table_name, a.attname as column_name,
      pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname) as seq
    from pg_attribute a
      join pg_class c on c.oid = a.attrelid
      join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped`)
  for (const row of columns) {
    if (!row.seq) continue
    await target.query(
      `select setval($1, coalesce((select max(${quoteIdent(String(row.column_name))}) from ${quoteIdent(String(row.table_name))}), 0) + 1, false)`,
      [row.seq],
    )
  }
}
