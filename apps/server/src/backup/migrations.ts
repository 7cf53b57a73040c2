import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { migrationsFolder } from '../db/migrate'
import type { AppliedMigration } from './format'

interface JournalEntry {
  idx: number
  when: number
  tag: string
}

interface Journal {
  entries: JournalEntry[]
}

/** The migrations this release knows, in order (drizzle's journal beside the SQL files). */
export async function knownMigrations(folder = migrationsFolder): Promise<Journal & Record<string, unknown>> {
  return JSON.parse(await readFile(path.join(folder, 'meta', '_journal.json'), 'utf8'))
}

/**
 * What a database has applied: drizzle's own table, read by its `created_at` (the journal's `when`,
 * by which drizzle decides what is still to run). Empty when the table does not exist.
 */
export const APPLIED_MIGRATIONS_SQL = `
  select created_at::text as created_at, hash from drizzle.__drizzle_migrations order by created_at`

export const TABLE_EXISTS_SQL = `select to_regclass('drizzle.__drizzle_migrations') is not null as present`

export function toApplied(rows: Record<string, unknown>[]): AppliedMigration[] {
  return rows.map((row) => ({ createdAt: Number(row.created_at), hash: String(row.hash) }))
}

/**
 * How far this release's migrations go to reach a backup's level: the number of known migrations the
 * backup had applied. Throws when the backup has a migration this release does not know (a newer
 * release wrote it).
 */
export function levelOf(applied: AppliedMigration[], journal: Journal, appVersion: string): number {
  const known = journal.entries.map((entry) => entry.when)
  applied.forEach((migration, i) => {
    if (known[i] !== migration.createdAt) {
      throw new NewerBackupError(
        `This backup comes from a newer release of Circles (${appVersion}, ${applied.length} database ` +
          `migrations; this release knows ${known.length}). Upgrade Circles to that release or a later one, ` +
          'then restore.',
      )
    }
  })
  return applied.length
}

export class NewerBackupError extends Error {}

/** A copy of the migrations folder whose journal stops after `count` migrations. */
export async function migrationsUpTo(count: number): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'circles-restore-migrations-'))
  await cp(migrationsFolder, dir, { recursive: true })
  const journal = await knownMigrations()
  journal.entries = journal.entries.slice(0, count)
  await writeFile(path.join(dir, 'meta', '_journal.json'), JSON.stringify(journal))
  return dir
}
