import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { pgliteExtensions } from '../../src/db/client'
import { migratePglite, migratePostgres } from '../../src/db/migrate'

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string
    /** With DATABASE_URL: a migrated database each test file's database is created from. */
    postgresTemplate: string
  }
}

/**
 * A fresh PGlite initdb costs ~2 s and ~800 MB; migrating once and loading the dump per test file
 * costs ~0.3 s. On PostgreSQL (DATABASE_URL) each file creates its own database as a copy of one
 * migrated here (a copy costs a third of migrating).
 */
export default async function setup(project: TestProject) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'circles-pglite-'))
  const file = path.join(dir, 'template.tar')
  const client = await PGlite.create({ extensions: pgliteExtensions })
  await migratePglite(client)
  const dump = await client.dumpDataDir('none')
  await writeFile(file, Buffer.from(await dump.arrayBuffer()))
  await client.close()
  project.provide('pgliteTemplate', file)
  const postgresTemplate = await createPostgresTemplate()
  project.provide('postgresTemplate', postgresTemplate ?? '')
  return async () => {
    await rm(dir, { recursive: true, force: true })
    if (postgresTemplate) await adminQuery(`drop database if exists ${postgresTemplate} with (force)`)
  }
}

async function adminQuery(sql: string) {
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await admin.connect()
  try {
    await admin.query(sql)
  } finally {
    await admin.end()
  }
}

async function createPostgresTemplate(): Promise<string | undefined> {
  const url = process.env.DATABASE_URL
  if (!url) return undefined
  const name = `circles_template_${randomBytes(6).toString('hex')}`
  await adminQuery(`create database ${name}`)
  const templateUrl = new URL(url)
  templateUrl.pathname = `/${name}`
  await migratePostgres(templateUrl.toString())
  return name
}
