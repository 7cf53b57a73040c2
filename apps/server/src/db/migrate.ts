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

export async function migratePglite(client: PGlite) {
  await runPgliteMigrations(drizzlePglite({ client }), { migrationsFolder })
}

/** Several servers may start together against one PostgreSQL; an advisory lock serialises them. */
export async function migratePostgres(url: string) {
  const client = new pg.Client({ connectionString: url })
  // A connection lost mid-migration fails the running query (and the start); it must not also emit an
  // unhandled 'error'.
  client.on('error', () => {})
  await client.connect()
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID])
    await runPgMigrations(drizzlePg({ client }), { migrationsFolder })
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {})
    await client.end()
  }
}
