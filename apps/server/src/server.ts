import { mkdir } from 'node:fs/promises'
import { buildApp } from './app'
import { ledgerSigner } from './lib/ledger-signer'
import { ConfigError, type Config, loadConfig } from './config'
import { openDatabase } from './db/client'
import { migratePostgres } from './db/migrate'
import { migratePgliteInChild } from './db/migrate-child'
import { DataDirLockedError, holdDataDir } from './lib/data-dir-lock'
import { loadOrCreateSecret } from './lib/secrets'

const SHUTDOWN_GRACE_MS = 10_000

async function start(config: Config) {
  await mkdir(config.dataDir, { recursive: true })
  if (config.databaseUrl) await migratePostgres(config.databaseUrl)
  else {
    // One process per embedded database: a second one would lose acknowledged writes. The migration
    // child inherits the lock.
    await migratePgliteInChild(config.dataDir, holdDataDir(config.dataDir))
  }

  const database = await openDatabase(config)
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
    { url: config.publicUrl, database: database.kind, mail: config.smtpUrl ? 'smtp' : 'log' },
    'Circles is running',
  )
}

try {
  await start(loadConfig())
} catch (error) {
  console.error(error instanceof ConfigError || error instanceof DataDirLockedError ? error.message : error)
  process.exit(1)
}
