import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { sql } from 'drizzle-orm'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import type { ExtractTablesWithRelations } from 'drizzle-orm'
import pg from 'pg'
import { type LockHolder, holdDataDir } from '../lib/data-dir-lock'
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

/**
 * The contrib extensions every embedded database loads: pg_trgm for the item search's trigram index
 * (migration 0009, docs/decisions/0031). Every PGlite the app, its migration and its tests open passes these.
 */
export const pgliteExtensions = { pg_trgm }

/** PGLITE_SHARED_BUFFERS_MB's default: PGlite's own (128 MB) is most of an idle server's memory. */
export const DEFAULT_PGLITE_SHARED_BUFFERS_MB = 32

/**
 * How every embedded database of the app and its tests is opened: PGlite's start parameters plus a
 * smaller shared_buffers (the page cache inside the WebAssembly heap; pages beyond it are read from
 * DATA_DIR through the operating system's cache) and max_connections 10 (PGlite runs one backend; the
 * default 100 sizes shared memory for 100). docs/decisions/0045.
 */
export function pgliteOptions(sharedBuffersMb = DEFAULT_PGLITE_SHARED_BUFFERS_MB) {
  return {
    extensions: pgliteExtensions,
    startParams: [
      ...PGlite.defaultStartParams,
      ...['-c', `shared_buffers=${sharedBuffersMb}MB`, '-c', 'max_connections=10'],
    ],
  }
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

/** How long a request waits for a connection before it is told the database is unavailable. */
const CONNECT_TIMEOUT_MS = 5000
/** How long readiness waits for `select 1`. */
const PING_TIMEOUT_MS = 2000

/**
 * A pool that survives its server's restart. node-postgres emits 'error' on a client whose connection
 * ends (a restart's admin_shutdown, a dropped socket), and an 'error' event without a listener ends the
 * process. The pool listens on idle clients only; every client, checked out or not (a transaction, the
 * socket.io adapter's LISTEN connection), gets a listener here. The query that was running fails and
 * answers 503 (plugins/error-handler.ts); the pool discards the broken client on release and opens a
 * new connection for the next query, so service resumes as soon as the server is back.
 */
export function createPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
  })
  const ignore = () => {}
  pool.on('connect', (client) => client.on('error', ignore))
  pool.on('error', ignore)
  return pool
}

export function fromPostgres(url: string, poolSize = 10): Database {
  const pool = createPool(url, poolSize)
  const db = drizzlePg({ client: pool, schema }) as unknown as Db
  return {
    db,
    kind: 'postgres',
    pool,
    ping: () => ping(db),
    close: () => pool.end(),
  }
}

/**
 * Opens the configured database: PostgreSQL when a URL is given, else PGlite in DATA_DIR/db, only
 * under the DATA_DIR lock (the one this process holds, or a new one: refused while another process,
 * a running server above all, has the directory).
 */
export async function openDatabase(
  opts: { databaseUrl?: string; dataDir: string; pgliteSharedBuffersMb?: number },
  holder: LockHolder = {},
): Promise<Database> {
  if (opts.databaseUrl) return fromPostgres(opts.databaseUrl)
  holdDataDir(opts.dataDir, holder)
  return fromPglite(
    await PGlite.create({
      dataDir: pgliteDataDir(opts.dataDir),
      ...pgliteOptions(opts.pgliteSharedBuffersMb),
    }),
  )
}

/** `select 1` answered within PING_TIMEOUT_MS. */
async function ping(db: Db) {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS)
  })
  try {
    return await Promise.race([db.execute(sql`select 1`).then(() => true), timeout])
  } catch {
    return false
  } finally {
    clearTimeout(timer)
  }
}
