/**
 * Runs in a short-lived child process: PGlite's first initdb needs far more memory than the running
 * server does, and a child gives it all back when it exits.
 */
import { PGlite } from '@electric-sql/pglite'
import { pgliteDataDir } from './client'
import { migratePglite } from './migrate'

const dataDir = process.argv[2]
if (!dataDir) {
  console.error('usage: migrate-pglite <DATA_DIR>')
  process.exit(2)
}
try {
  const client = await PGlite.create({ dataDir: pgliteDataDir(dataDir) })
  await migratePglite(client)
  await client.close()
  process.exit(0)
} catch (error) {
  console.error('database migration failed:', error)
  process.exit(1)
}
