import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../src/app'
import { loadConfig } from '../../src/config'
import { fromPostgres } from '../../src/db/client'
import type { LogStream } from '../../src/lib/logging'
import { freePort } from '../outage/private-postgres'
import { TEST_JWT_SECRET, TEST_PUBLIC_URL } from './test-app'

/**
 * The app on a PostgreSQL that is not there (a port nobody listens on), as during a restart. `env` adds
 * settings (LOG_LEVEL is 'silent' unless given); `close()` also removes its DATA_DIR.
 */
export async function appWithUnreachableDatabase(
  env: Record<string, string> = {},
  logStream?: LogStream,
): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const url = `postgres://circles:circles@127.0.0.1:${await freePort()}/circles`
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'circles-test-'))
  const database = fromPostgres(url, 2)
  const app = await buildApp({
    config: loadConfig({
      LOG_LEVEL: 'silent',
      PUBLIC_URL: TEST_PUBLIC_URL,
      DATA_DIR: dataDir,
      DATABASE_URL: url,
      ...env,
    }),
    database,
    jwtSecret: TEST_JWT_SECRET,
    webDir: null,
    logStream,
  })
  await app.ready()
  return {
    app,
    async close() {
      await app.close()
      await database.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}
