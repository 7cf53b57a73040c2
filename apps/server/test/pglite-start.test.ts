import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { inject } from 'vitest'
import { fromPglite, pgliteDataDir, pgliteOptions } from '../src/db/client'
import { fullyMigrated, openMigratedPglite, whileStarting } from '../src/db/pglite-start'
import { holdDataDir } from '../src/lib/data-dir-lock'

// The embedded database's start (docs/decisions/0045): a migrated DATA_DIR opens without the
// migration child, anything else still goes through it; the page cache is PGLITE_SHARED_BUFFERS_MB.
const dirs: string[] = []
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))))

/** A DATA_DIR whose database is the migrated test template. */
async function migratedDataDir() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'circles-pglite-start-'))
  dirs.push(dir)
  const template = await readFile(inject('pgliteTemplate'))
  const client = await PGlite.create({
    dataDir: pgliteDataDir(dir),
    loadDataDir: new Blob([template]),
    ...pgliteOptions(),
  })
  await client.close()
  return dir
}

const show = async (db: { execute: (q: ReturnType<typeof sql>) => Promise<unknown> }, name: string) =>
  ((await db.execute(sql.raw(`show ${name}`))) as { rows: Record<string, string>[] }).rows[0]![name]

describe('openMigratedPglite', () => {
  it('opens a fully migrated DATA_DIR in this process, without the migration child', async () => {
    const dir = await migratedDataDir()
    const calls: string[] = []
    const database = await openMigratedPglite({ dataDir: dir }, holdDataDir(dir), async (d) => {
      calls.push(d)
    })
    try {
      expect(calls).toEqual([])
      expect(await fullyMigrated(database.db)).toBe(true)
      expect(await database.ping()).toBe(true)
      expect(await show(database.db, 'shared_buffers')).toBe('32MB')
      expect(await show(database.db, 'max_connections')).toBe('10')
    } finally {
      await database.close()
    }
  })

  it('runs the migration first when one is pending, then opens the migrated database', async () => {
    const dir = await migratedDataDir()
    // The newest migration's row gone: as if this build brought a migration the database lacks.
    const client = await PGlite.create({ dataDir: pgliteDataDir(dir), ...pgliteOptions() })
    const last = await client.query<{ hash: string; created_at: string }>(
      'select hash, created_at::text from drizzle.__drizzle_migrations order by created_at desc limit 1',
    )
    await client.query('delete from drizzle.__drizzle_migrations where hash = $1', [last.rows[0]!.hash])
    await client.close()

    const calls: string[] = []
    const database = await openMigratedPglite(
      { dataDir: dir, pgliteSharedBuffersMb: 16 },
      holdDataDir(dir),
      async (d) => {
        calls.push(d)
        // The migration (the child in production): the database of the caller is closed meanwhile.
        const migrating = await PGlite.create({ dataDir: pgliteDataDir(d), ...pgliteOptions() })
        await migrating.query('insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)', [
          last.rows[0]!.hash,
          last.rows[0]!.created_at,
        ])
        await migrating.close()
      },
    )
    try {
      expect(calls).toEqual([dir])
      expect(await fullyMigrated(database.db)).toBe(true)
      expect(await show(database.db, 'shared_buffers')).toBe('16MB')
    } finally {
      await database.close()
    }
  })

  it('sends a new DATA_DIR (no database yet: initdb) to the migration', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'circles-pglite-start-'))
    dirs.push(dir)
    const calls: string[] = []
    await expect(
      openMigratedPglite({ dataDir: dir }, holdDataDir(dir), async (d) => {
        calls.push(d)
        throw new Error('migration process exited with 1')
      }),
    ).rejects.toThrow('migration process exited with 1')
    expect(calls).toEqual([dir])
  })

  it('reads a database without the migrations table as not migrated', async () => {
    const dir = await migratedDataDir()
    const client = await PGlite.create({ dataDir: pgliteDataDir(dir), ...pgliteOptions() })
    try {
      await client.query('drop schema drizzle cascade')
      expect(await fullyMigrated(fromPglite(client).db)).toBe(false)
    } finally {
      await client.close()
    }
  })
})

describe('whileStarting', () => {
  const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length

  it('holds the event loop open while the start runs, and lets go after it', async () => {
    const before = timers()
    let during = 0
    const result = await whileStarting(async () => {
      during = timers()
      return 'started'
    })
    expect(result).toBe('started')
    expect(during).toBe(before + 1)
    expect(timers()).toBe(before)
  })

  it('lets go when the start fails, and passes the error on', async () => {
    const before = timers()
    await expect(
      whileStarting(async () => {
        throw new Error('no start')
      }),
    ).rejects.toThrow('no start')
    expect(timers()).toBe(before)
  })
})
