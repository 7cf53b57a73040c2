import { existsSync, readFileSync } from 'node:fs'
import { readFile, readdir } from 'node:fs/promises'
import path from 'node:path'
import type { Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGzip } from 'node:zlib'
import type { Config } from '../config'
import { EntryWriter, FORMAT, FORMAT_VERSION, SECRET_FILES, type Trailer, isPlainName } from './format'
import { APPLIED_MIGRATIONS_SQL, TABLE_EXISTS_SQL, toApplied } from './migrations'

/** One statement inside the snapshot's transaction; rows as objects. */
export type Query = (text: string) => Promise<Record<string, unknown>[]>

/** The server's version: apps/server/package.json, the first one up from this file (source or bundle). */
export const appVersion: string = (() => {
  for (let dir = new URL('.', import.meta.url); ; dir = new URL('..', dir)) {
    const file = new URL('package.json', dir)
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')).version
    if (dir.pathname === '/') return 'unknown'
  }
})()

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`

/** The configuration kept for reference: what a restore must set again, never a secret. */
export function referenceConfig(config: Config) {
  let smtp: string | null = null
  if (config.smtpUrl) {
    const url = new URL(config.smtpUrl)
    smtp = `${url.protocol}//${url.host}`
  }
  return {
    PUBLIC_URL: config.publicUrl,
    MAIL_FROM: config.mailFrom,
    CONTACT_EMAIL: config.contactEmail,
    SMTP_URL: smtp === null ? null : `${smtp} (user and password not kept)`,
    JWT_SECRET: config.jwtSecret ? 'given by the environment (not kept)' : 'DATA_DIR/jwt-secret',
    LEDGER_SIGNING_KEY: config.ledgerSigningKey
      ? 'given by the environment (not kept)'
      : 'DATA_DIR/ledger-signing-key',
    LEDGER_PREVIOUS_KEYS: config.ledgerPreviousKeys.join(','),
    PLAN_LIMITS: config.planLimits ? 'on' : 'off',
    STAGING: config.staging ? 'on' : 'off',
    RATE_LIMITS: config.rateLimits ? 'on' : 'off',
    REGISTRATIONS_PER_HOUR: config.registrationsPerHour,
    SOCKETS_PER_ACCOUNT: config.socketsPerAccount,
  }
}

interface Column {
  name: string
  type: string
}

/** The tables of the public schema, parents before children (foreign keys), else by name. */
async function tablesInOrder(query: Query): Promise<Map<string, Column[]>> {
  const columns = await query(`
    select c.relname as table_name, a.attname as column_name, format_type(a.atttypid, a.atttypmod) as type
    from pg_attribute a
      join pg_class c on c.oid = a.attrelid
      join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
      and a.attgenerated = ''
    order by c.relname, a.attnum`)
  const byTable = new Map<string, Column[]>()
  for (const row of columns) {
    const table = String(row.table_name)
    if (!byTable.has(table)) byTable.set(table, [])
    byTable.get(table)!.push({ name: String(row.column_name), type: String(row.type) })
  }
  const keys = await query(`
    select child.relname as child, parent.relname as parent
    from pg_constraint k
      join pg_class child on child.oid = k.conrelid
      join pg_class parent on parent.oid = k.confrelid
      join pg_namespace n on n.oid = child.relnamespace
    where k.contype = 'f' and n.nspname = 'public'`)
  const parents = new Map<string, Set<string>>([...byTable.keys()].map((t) => [t, new Set<string>()]))
  for (const key of keys) {
    const child = String(key.child)
    const parent = String(key.parent)
    if (child !== parent && parents.has(parent)) parents.get(child)?.add(parent)
  }
  const ordered = new Map<string, Column[]>()
  const remaining = [...byTable.keys()].sort()
  while (remaining.length > 0) {
    const next = remaining.findIndex((t) => [...parents.get(t)!].every((p) => ordered.has(p)))
    if (next < 0) throw new Error(`foreign keys form a cycle among: ${remaining.join(', ')}`)
    const [table] = remaining.splice(next, 1)
    ordered.set(table!, byTable.get(table!)!)
  }
  return ordered
}

/** A column read as text: bytea as base64 (one line), everything else in PostgreSQL's text form. */
const readAs = (column: Column, alias: string) =>
  column.type === 'bytea'
    ? `translate(encode(${quoteIdent(column.name)}, 'base64'), E'\\n', '') as ${alias}`
    : `${quoteIdent(column.name)}::text as ${alias}`

/**
 * A table's rows a batch at a time through a cursor of the snapshot's transaction, so a large table (the
 * pictures in `stored_files`) never sits in memory whole: a few rows per batch when it holds bytea.
 */
async function* rowsOf(query: Query, table: string, columns: Column[]) {
  const select = columns.map((c, i) => readAs(c, `c${i}`)).join(', ')
  const batch = columns.some((c) => c.type === 'bytea') ? 8 : 1000
  await query(`declare backup_rows no scroll cursor for select ${select} from ${quoteIdent(table)}`)
  try {
    for (;;) {
      const rows = await query(`fetch ${batch} from backup_rows`)
      yield* rows
      if (rows.length < batch) break
    }
  } finally {
    // After a failed fetch the transaction is aborted and refuses this too: the first error is the one to report.
    await query('close backup_rows').catch(() => {})
  }
}

export interface SnapshotSource {
  kind: 'pglite' | 'postgres'
  dataDir: string
  config: Config
  /**
   * Runs `body` inside one transaction that sees one snapshot of the database (PostgreSQL: REPEATABLE
   * READ READ ONLY; PGlite: its single connection's transaction, which nothing else interleaves).
   */
  inSnapshot<T>(body: (query: Query) => Promise<T>): Promise<T>
}

/**
 * Writes a whole backup, gzip'd, to `out`: the tables and the pictures on disk are read inside the
 * snapshot's transaction, so they belong together. Resolves with the trailer once `out` has it all.
 */
export async function writeSnapshot(source: SnapshotSource, out: Writable): Promise<Trailer> {
  const gzip = createGzip()
  const flowing = pipeline(gzip, out)
  const write = (chunk: Buffer) =>
    new Promise<void>((resolve, reject) => gzip.write(chunk, (error) => (error ? reject(error) : resolve())))
  const writer = new EntryWriter(write)
  try {
    const trailer = await source.inSnapshot(async (query) => {
      await query(`set local datestyle = 'ISO, YMD'`)
      await query(`set local intervalstyle = 'postgres'`)
      const present = await query(TABLE_EXISTS_SQL)
      const migrations = present[0]?.present === true ? toApplied(await query(APPLIED_MIGRATIONS_SQL)) : []
      await writer.entry({
        kind: 'header',
        format: FORMAT,
        formatVersion: FORMAT_VERSION,
        appVersion,
        createdAt: new Date().toISOString(),
        database: source.kind,
        migrations,
        config: referenceConfig(source.config),
      })
      for (const [table, columns] of await tablesInOrder(query)) {
        await writer.entry({
          kind: 'table',
          name: table,
          columns: columns.map((c) => c.name),
          types: columns.map((c) => c.type),
        })
        for await (const row of rowsOf(query, table, columns)) {
          await writer.entry({
            kind: 'row',
            values: columns.map((_, i) => (row[`c${i}`] ?? null) as string | null),
          })
        }
      }
      // The embedded mode's pictures (PostgreSQL keeps them in stored_files, already written).
      if (source.kind === 'pglite') {
        const uploads = path.join(source.dataDir, 'uploads')
        const names = (await readdir(uploads).catch(() => [] as string[])).filter(isPlainName).sort()
        for (const name of names) {
          const bytes = await readFile(path.join(uploads, name)).catch(() => null)
          if (bytes)
            await writer.entry({ kind: 'file', area: 'uploads', name, data: bytes.toString('base64') })
        }
      }
      for (const name of SECRET_FILES) {
        const bytes = await readFile(path.join(source.dataDir, name)).catch(() => null)
        if (bytes) await writer.entry({ kind: 'file', area: 'secrets', name, data: bytes.toString('base64') })
      }
      return writer.finish()
    })
    gzip.end()
    await flowing
    return trailer
  } catch (error) {
    gzip.destroy(error as Error)
    await flowing.catch(() => {})
    throw error
  }
}
