import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import type { TestProject } from 'vitest/node'
import { pgliteExtensions } from '../../src/db/client'
import { migratePglite } from '../../src/db/migrate'

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string
  }
}

/**
 * A fresh PGlite initdb costs ~2 s and ~800 MB; migrating once and loading the dump per test file
 * costs ~0.3 s. On PostgreSQL (DATABASE_URL) each file creates its own database instead.
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
  return async () => {
    await rm(dir, { recursive: true, force: true })
  }
}
