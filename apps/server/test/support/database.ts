import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { inject } from 'vitest'
import { type Database, fromPglite, fromPostgres, pgliteOptions } from '../../src/db/client'

/** A migrated, empty database of its own for one test file: PGlite by default, PostgreSQL with DATABASE_URL. */
export async function createTestDatabase(poolSize = 4): Promise<Database> {
  const url = process.env.DATABASE_URL
  if (!url) {
    const template = await readFile(inject('pgliteTemplate'))
    return fromPglite(await PGlite.create({ loadDataDir: new Blob([template]), ...pgliteOptions() }))
  }
  const name = `circles_test_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`create database ${name} template ${inject('postgresTemplate')}`)
  await admin.end()
  const dbUrl = new URL(url)
  dbUrl.pathname = `/${name}`
  const database = fromPostgres(dbUrl.toString(), poolSize)
  return {
    ...database,
    async close() {
      await database.close()
      const cleanup = new pg.Client({ connectionString: url })
      await cleanup.connect()
      await cleanup.query(`drop database if exists ${name} with (force)`)
      await cleanup.end()
    },
  }
}
