import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { LOCK_FD_ENV } from '../lib/data-dir-lock'
import { MigrationError } from './migrate'

/** The child's entry beside this code: the bundle's migrate-pglite.js, or the source when run from src. */
const entry = fileURLToPath(
  new URL(import.meta.url.endsWith('.ts') ? './migrate-pglite.ts' : './migrate-pglite.js', import.meta.url),
)

/**
 * Migrates the embedded database in a short-lived child (db/migrate-pglite.ts). The caller holds the
 * DATA_DIR lock; the child inherits it as file descriptor 4 (LOCK_FD_ENV), so it may open the database
 * while every other process stays locked out, with no moment in between where the lock is free.
 */
export function migratePgliteInChild(dataDir: string, lockFd: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = fork(entry, [dataDir], {
      stdio: ['inherit', 'inherit', 'inherit', 'ipc', lockFd],
      env: { ...process.env, [LOCK_FD_ENV]: '4' },
    })
    child.on('error', reject)
    child.on('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(
            new MigrationError(
              `The database migration process exited with ${code ?? signal}: see its message above.`,
            ),
          ),
    )
  })
}
