import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import type { ExtractTablesWithRelations } from 'drizzle-orm'
import pg from 'pg'
import * as schema from './schema'

export type Schema = typeof schema
export type Db = PgDatabase<PgQueryResultHKT, Schema>
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>
/** Repositories take either the database or the service's open transaction. */
export type Executor = Db | Tx

export interface Database {
  db: Db
  kind: 'pglite' | 'postgres'
  /** The connection pool of a PostgreSQL server (absent for PGlite); shared rate-limit counters use it. */
  pool?: pg.Pool
  ping(): Promise<boolean>
  close(): Promise<void>
}

export function pgliteDataDir(dataDir: string) {
  return path.join(dataDir, 'db')
}

export function fromPglite(client: PGlite): Database {
  const db = drizzlePglite({ client, schema }) as unknown as Db
  return {
    db,
    kind: 'pglite',
    ping: () => ping(db),
    close: () => client.close(),
  }
}

export function fromPostgres(url: string, poolSize = 10): Database {
  const pool = new pg.Pool({ connectionString: url, max: poolSize })
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => {})
  const db = drizzlePg({ client: pool, schema }) as unknown as Db
  return {
    db,
    kind: 'postgres',
    pool,
    ping: () => ping(db),
    close: () => pool.end(),
  }
}

/** Opens the configured database: PostgreSQL when a URL is given, else PGlite in DATA_DIR/db. */
export async function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  if (opts.databaseUrl) return fromPostgres(opts.databaseUrl)
  return fromPglite(await PGlite.create({ dataDir: pgliteDataDir(opts.dataDir) }))
}

async function ping(db: Db) {
  try {
    await db.execute(sql`select 1`)
    return true
  } catch {
    return false
  }
}
