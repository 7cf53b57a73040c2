import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { PGlite } from '@electric-sql/pglite'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as runPgMigrations } from 'drizzle-orm/node-postgres/migrator'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as runPgliteMigrations } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'

/** Beside this file in the source tree, and copied beside the bundle by build.mjs. */
export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url))

/** Any fixed number: every instance takes the same lock so only one migrates at a time. */
const MIGRATION_LOCK_ID = 726_354_001

/**
 * A migration failed. drizzle-orm runs every pending migration in ONE transaction (PgDialect.migrate,
 * docs/decisions/0041), so none of them is applied: the database is still at the release before.
 */
export class MigrationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'MigrationError'
  }
}

type Query = (text: string) => Promise<{ rows: Record<string, unknown>[] }>
type Journal = { entries: { tag: string; when: number }[] }

const readJournal = (folder: string) =>
  JSON.parse(readFileSync(`${folder}/meta/_journal.json`, 'utf8')) as Journal

/** The date (journal `when`) of the last applied migration, as drizzle reads it; none on an empty database. */
async function lastApplied(query: Query): Promise<number | undefined> {
  // Asked first, so a new database's start logs no "relation does not exist" on the server.
  const { rows: table } = await query(
    `select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
  )
  if (!table[0]?.present) return undefined
  const { rows } = await query(
    `select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`,
  )
  const last = rows[0]?.created_at
  return last === undefined || last === null ? undefined : Number(last)
}

/** "0010_departures_and_block_reason": the migration of that date in this release's journal. */
function tagOf(journal: Journal, when: number | undefined): string {
  if (when === undefined) return 'none (an empty database)'
  return (
    journal.entries.find((e) => e.when === when)?.tag ??
    `of ${new Date(when).toISOString()}, not one of this release`
  )
}

/**
 * Runs drizzle's migrator (`run`) with the checks and messages an operator needs: a database a newer
 * release migrated is refused before anything runs (drizzle would apply nothing and start this older
 * code on a schema it does not know); a failure names the migration the database is still at.
 */
async function migrating(query: Query, folder: string, run: () => Promise<void>) {
  const journal = readJournal(folder)
  const newest = journal.entries.at(-1)
  const before = await lastApplied(query)
  if (newest && before !== undefined && before > newest.when) {
    throw new MigrationError(
      `The database was migrated by a newer release of Circles (its last migration is dated ` +
        `${new Date(before).toISOString()}; this release knows migrations up to ${newest.tag}). Start ` +
        `that release, or restore the backup taken before the upgrade (docs/operations.md, "Upgrades ` +
        `and rollback").`,
    )
  }
  try {
    await run()
  } catch (error) {
    const cause = error instanceof Error ? (error.cause instanceof Error ? error.cause : error) : error
    const reason = cause instanceof Error ? cause.message : String(cause)
    const at = await lastApplied(query).then(
      (when) => tagOf(journal, when),
      () => 'unknown (the database did not answer)',
    )
    throw new MigrationError(
      `The database migration failed, and none of this release's migrations was applied: the database ` +
        `is still at migration ${at}. Cause: ${reason}. Start the previous release again, or fix the ` +
        `cause and restart (docs/operations.md, "Upgrades and rollback").`,
      { cause: error },
    )
  }
}

export async function migratePglite(client: PGlite, folder = migrationsFolder) {
  await migrating(
    (text) => client.query(text),
    folder,
    () => runPgliteMigrations(drizzlePglite({ client }), { migrationsFolder: folder }),
  )
}

/** Several servers may start together against one PostgreSQL; an advisory lock serialises them. */
export async function migratePostgres(url: string, folder = migrationsFolder) {
  const client = new pg.Client({ connectionString: url })
  // A connection lost mid-migration fails the running query (and the start); it must not also emit an
  // unhandled 'error'.
  client.on('error', () => {})
  await client.connect()
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID])
    await migrating(
      (text) => client.query(text),
      folder,
      () => runPgMigrations(drizzlePg({ client }), { migrationsFolder: folder }),
    )
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {})
    await client.end()
  }
}
