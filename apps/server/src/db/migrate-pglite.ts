/**
 * Migrates the embedded database in DATA_DIR. The server runs it in a short-lived child process
 * (db/migrate-child.ts): PGlite's first initdb needs far more memory than the running server does,
 * and a child gives it all back when it exits. Run on its own (`node apps/server/dist/migrate-pglite.js
 * <DATA_DIR>`), it takes the DATA_DIR lock like the server and refuses while a server runs there.
 */
import { PGlite } from '@electric-sql/pglite'
import { DataDirLockedError, holdDataDir } from '../lib/data-dir-lock'
import { pgliteDataDir, pgliteExtensions } from './client'
import { MigrationError, migratePglite } from './migrate'

const dataDir = process.argv[2]
if (!dataDir) {
  console.error('usage: migrate-pglite <DATA_DIR>')
  process.exit(2)
}
try {
  // The server's lock when it started this process (inherited), else one of our own.
  holdDataDir(dataDir, { role: 'database migration', action: 'migrate the database' })
  const client = await PGlite.create({ dataDir: pgliteDataDir(dataDir), extensions: pgliteExtensions })
  await migratePglite(client)
  await client.close()
  process.exit(0)
} catch (error) {
  if (error instanceof DataDirLockedError || error instanceof MigrationError) console.error(error.message)
  else console.error('database migration failed:', error)
  process.exit(1)
}
