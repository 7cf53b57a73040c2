import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { buildApp } from './app'
import { listenForBackups } from './backup/admin-socket'
import { ledgerSigner } from './lib/ledger-signer'
import { ConfigError, type Config, loadConfig } from './config'
import { openDatabase } from './db/client'
import { MigrationError, migratePostgres } from './db/migrate'
import { openMigratedPglite, whileStarting } from './db/pglite-start'
import { DataDirLockedError, holdDataDir } from './lib/data-dir-lock'
import { serializeError } from './lib/logging'
import { loadOrCreateSecret } from './lib/secrets'
import { vapidFromSecret } from './lib/push/vapid'
import { gracefulShutdown } from './lib/shutdown'

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
  // Issue 27: the VAPID keys from the environment, else derived from a secret kept in DATA_DIR.
  const vapidKeys =
    config.push.vapid ?? vapidFromSecret(await loadOrCreateSecret(config.dataDir, 'vapid-key'))
  const app = await buildApp({ config, database, jwtSecret, ledgerKey, vapidKeys })
  // The backup command's way to the embedded database while this server holds it (docs/decisions/0040).
  if (database.kind === 'pglite') await listenForBackups(app, config, database)

  const shutdown = gracefulShutdown({
    app,
    drain: app.drain,
    database,
    drainMs: config.shutdownDrainMs,
    timeoutMs: config.shutdownTimeoutMs,
    exit: (code) => process.exit(code),
  })
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
  await whileStarting(() => start(loadConfig()))
} catch (error) {
  console.error(
    error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof MigrationError
      ? error.message
      : JSON.stringify(serializeError(error), null, 2),
  )
  process.exit(1)
}
