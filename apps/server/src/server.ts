import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { buildApp } from './app'
import { ledgerSigner } from './lib/ledger-signer'
import { ConfigError, type Config, loadConfig } from './config'
import { openDatabase } from './db/client'
import { migratePostgres } from './db/migrate'
import { openMigratedPglite } from './db/pglite-start'
import { DataDirLockedError, holdDataDir } from './lib/data-dir-lock'
import { serializeError } from './lib/logging'
import { loadOrCreateSecret } from './lib/secrets'

const SHUTDOWN_GRACE_MS = 10_000

async function start(config: Config) {
  await mkdir(config.dataDir, { recursive: true })
  if (config.databaseUrl) await migratePostgres(config.databaseUrl)
  // One process per embedded database: a second one would lose acknowledged writes. The migration
  // child, when one is needed (db/pglite-start.ts), inherits the lock.
  const database = config.databaseUrl
    ? await openDatabase(config)
    : await openMigratedPglite(config, holdDataDir(config.dataDir))
  const jwtSecret = await loadOrCreateSecret(config.dataDir, 'jwt-secret', config.jwtSecret)
  const ledgerSecret = await loadOrCreateSecret(config.dataDir, 'ledger-signing-key', config.ledgerSigningKey)
  const ledgerKey = ledgerSigner(config.publicUrl, ledgerSecret, config.ledgerPreviousKeys)
  const app = await buildApp({ config, database, jwtSecret, ledgerKey })

  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down: no new connections, finishing requests in flight')
    setTimeout(() => {
      app.log.error('shutdown took too long; exiting')
      process.exit(1)
    }, SHUTDOWN_GRACE_MS).unref()
    await app.close()
    await database.close()
    process.exit(0)
  }
  process.once('SIGTERM', () => void shutdown('SIGTERM'))
  process.once('SIGINT', () => void shutdown('SIGINT'))

  await app.listen({ port: config.port, host: config.host })
  app.log.info(
    {
      url: config.publicUrl,
      database: database.kind,
      mail: config.smtpUrl ? 'smtp' : `files in ${path.join(config.dataDir, 'mail')}`,
    },
    'Circles is running',
  )
}

// An error nobody handled still ends the process, as Node would end it, but is written as the log
// writes errors: without query parameters or PostgreSQL's detail (lib/logging.ts).
process.on('uncaughtException', (error) => {
  process.stderr.write(
    `${JSON.stringify({ level: 60, time: Date.now(), err: serializeError(error), msg: 'uncaught exception' })}\n`,
  )
  process.exit(1)
})

try {
  await start(loadConfig())
} catch (error) {
  console.error(
    error instanceof ConfigError || error instanceof DataDirLockedError
      ? error.message
      : JSON.stringify(serializeError(error), null, 2),
  )
  process.exit(1)
}
