import { existsSync } from 'node:fs'
import path from 'node:path'
import v8 from 'node:v8'
import { sql } from 'drizzle-orm'
import { readMigrationFiles } from 'drizzle-orm/migrator'
import { type Database, type Db, openDatabase, pgliteDataDir } from './client'
import { migrationsFolder } from './migrate'
import { migratePgliteInChild } from './migrate-child'

/**
 * True when the database holds every migration of this build, checked the way drizzle's migrator
 * decides (its table's newest row against the journal's last entry), and stricter: the same number
 * of rows and the same hash. Anything else, an error included, answers false and the migration runs.
 */
export async function fullyMigrated(db: Db): Promise<boolean> {
  const expected = readMigrationFiles({ migrationsFolder })
  const last = expected.at(-1)
  if (!last) return false
  try {
    type Row = { hash: string; created_at: string; count: string }
    // PGlite's and node-postgres's results both carry `rows`.
    const result = (await db.execute(
      sql`select hash, created_at::text, (select count(*) from drizzle.__drizzle_migrations)::text as count
          from drizzle.__drizzle_migrations order by created_at desc limit 1`,
    )) as unknown as { rows: Row[] }
    const row = result.rows[0]
    return (
      row !== undefined &&
      row.hash === last.hash &&
      Number(row.created_at) === last.folderMillis &&
      Number(row.count) === expected.length
    )
  } catch {
    return false
  }
}

/**
 * Opens the embedded database of DATA_DIR, migrated. Most starts find it initialised and fully
 * migrated: one query in this process then replaces the migration child (docs/decisions/0045), which
 * costs a second PGlite start. A new directory (initdb, which needs far more memory than the running
 * server and gives it back when the child exits) or a pending migration still goes through the child,
 * with this process's database closed meanwhile; the caller holds the DATA_DIR lock (`lockFd`).
 * `migrate` is the child unless a test watches the decision.
 */
export async function openMigratedPglite(
  config: { dataDir: string; pgliteSharedBuffersMb?: number },
  lockFd: number,
  migrate: (dataDir: string, lockFd: number) => Promise<void> = migratePgliteInChild,
): Promise<Database> {
  const opts = { dataDir: config.dataDir, pgliteSharedBuffersMb: config.pgliteSharedBuffersMb }
  if (existsSync(path.join(pgliteDataDir(config.dataDir), 'PG_VERSION'))) {
    const database = await openDatabase(opts)
    if (await fullyMigrated(database.db)) return database
    await database.close()
  }
  await migrate(config.dataDir, lockFd)
  return openDatabase(opts)
}

/** V8's default for `--wasm-num-compilation-tasks` (Node 20's V8), restored once the start is over. */
const WASM_COMPILATION_TASKS_DEFAULT = 128

/**
 * Runs the server's start (`work`, up to listening) under two settings that keep PGlite's start off
 * the slow path (docs/decisions/0045). PostgreSQL's startup code runs in WebAssembly and V8 compiles
 * its hot functions again, optimised, on background threads:
 * - at most one such thread while starting (`--wasm-num-compilation-tasks=1`, as many as it likes
 *   otherwise): on a 2-core machine the default's four compete with the start's own thread; the
 *   default returns afterwards, so requests tier up as before;
 * - a timer holds the event loop open: while PGlite's start awaits a WebAssembly promise nothing else
 *   does, and with no open handle Node waits for every background task to finish (the optimising
 *   compiles included, several hundred milliseconds) before it runs the next callback.
 * A `--wasm-num-compilation-tasks` given to node (NODE_OPTIONS) is left alone.
 */
export async function whileStarting<T>(work: () => Promise<T>): Promise<T> {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) =>
    arg.includes('wasm-num-compilation-tasks'),
  )
  if (!given) v8.setFlagsFromString('--wasm-num-compilation-tasks=1')
  const open = setInterval(() => {}, 60_000)
  try {
    return await work()
  } finally {
    clearInterval(open)
    if (!given) v8.setFlagsFromString(`--wasm-num-compilation-tasks=${WASM_COMPILATION_TASKS_DEFAULT}`)
  }
}
