/**
 * `npm run backup -- <file>` and `npm run restore -- <file>` (node apps/server/dist/backup.js
 * backup|restore <file>), with the server's environment (DATA_DIR, DATABASE_URL). See
 * docs/operations.md "Backup and restore" and docs/decisions/0040.
 */
import { randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { open, rename, rm, stat } from 'node:fs/promises'
import net from 'node:net'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { ConfigError, type Config, loadConfig } from '../config'
import { pgliteDataDir, pgliteExtensions } from '../db/client'
import { DataDirLockedError, holdDataDir } from '../lib/data-dir-lock'
import { adminSocketPath, socketPathProblem } from './admin-socket'
import { BackupFileError, type Trailer, validateBackup } from './format'
import { NewerBackupError } from './migrations'
import { RestoreRefusedError, restoreBackup } from './restore'
import { type SnapshotSource, writeSnapshot } from './snapshot'

class CliError extends Error {}

const describe = (trailer: Trailer) => {
  const rows = Object.values(trailer.counts.tables).reduce((a, b) => a + b, 0)
  return `${Object.keys(trailer.counts.tables).length} tables, ${rows} rows, ${trailer.counts.uploads} picture files, ${trailer.counts.secrets} key files`
}

/** The embedded server running on DATA_DIR, asked over its socket; false when none answers. */
async function backupThroughServer(config: Config, write: (out: NodeJS.WritableStream) => Promise<void>) {
  const socketPath = adminSocketPath(config.dataDir)
  // Too long a path: no server can listen there; the lock below tells whether one runs.
  if (socketPathProblem(socketPath)) return false
  const socket = net.createConnection(socketPath)
  const connected = await new Promise<boolean>((resolve) => {
    socket.once('connect', () => resolve(true))
    socket.once('error', () => resolve(false))
  })
  if (!connected) return false
  socket.write('backup\n')
  await write(socket as unknown as NodeJS.WritableStream)
  return true
}

/** Writes the backup to `file` (0600, a temporary name until it is complete and checked). */
async function backup(file: string, config: Config) {
  try {
    await stat(file)
    throw new CliError(`${file} already exists; choose a new file name.`)
  } catch (error) {
    if (error instanceof CliError) throw error
  }
  const temporary = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${randomBytes(6).toString('hex')}.part`,
  )
  // Created 0600 here: it holds keys. The writers below reopen it, which keeps the mode.
  await (await open(temporary, 'wx', 0o600)).close()
  let how: string
  try {
    if (config.databaseUrl) {
      await writeSnapshot(postgresSource(config), createWriteStream(temporary))
      how = 'from PostgreSQL in one read-only transaction'
    } else {
      how = await embeddedBackup(config, temporary)
    }
    const { trailer } = await validateBackup(temporary).catch((error: Error) => {
      throw new CliError(`The backup came out incomplete (${error.message}). Try again; nothing was kept.`)
    })
    await rename(temporary, file)
    console.log(`Backup written to ${file} ${how}: ${describe(trailer)}.`)
    console.log(
      'It holds the ledger signing key and session secret when they are in DATA_DIR: keep it private.',
    )
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
}

/** Through the running server, or, when none runs, under the DATA_DIR lock with PGlite opened here. */
async function embeddedBackup(config: Config, temporary: string): Promise<string> {
  const viaServer = await backupThroughServer(config, async (socket) => {
    const out = createWriteStream(temporary)
    const first = await new Promise<Buffer | null>((resolve) => {
      ;(socket as unknown as net.Socket).once('data', (chunk: Buffer) => resolve(chunk))
      ;(socket as unknown as net.Socket).once('end', () => resolve(null))
    })
    if (!first) throw new CliError('The running server closed the backup connection without an answer.')
    if (first.subarray(0, 6).toString() === 'ERROR ') {
      throw new CliError(`The running server refused the backup: ${first.toString('utf8').slice(6).trim()}`)
    }
    out.write(first)
    const s = socket as unknown as net.Socket
    await new Promise<void>((resolve, reject) => {
      s.pipe(out)
      out.on('finish', resolve)
      out.on('error', reject)
      s.on('error', reject)
    })
  })
  if (viaServer) return 'by the running server'
  try {
    holdDataDir(config.dataDir, { role: 'backup', action: 'back up the database' })
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      throw new CliError(
        `${error.message}\n` +
          (socketPathProblem(adminSocketPath(config.dataDir)) ??
            `(The running server did not answer on ${adminSocketPath(config.dataDir)}.)`),
      )
    }
    throw error
  }
  if (!(await stat(pgliteDataDir(config.dataDir)).catch(() => null))) {
    throw new CliError(`There is no database in ${config.dataDir} (DATA_DIR) to back up.`)
  }
  const client = await PGlite.create({ dataDir: pgliteDataDir(config.dataDir), extensions: pgliteExtensions })
  try {
    await writeSnapshot(
      {
        kind: 'pglite',
        dataDir: config.dataDir,
        config,
        inSnapshot: (body) =>
          client.transaction((tx) =>
            body(async (text) => (await tx.query<Record<string, unknown>>(text)).rows),
          ),
      },
      createWriteStream(temporary),
    )
  } finally {
    await client.close()
  }
  return 'with the server stopped (under the data directory lock)'
}

function postgresSource(config: Config): SnapshotSource {
  return {
    kind: 'postgres',
    dataDir: config.dataDir,
    config,
    async inSnapshot(body) {
      const client = new pg.Client({ connectionString: config.databaseUrl })
      client.on('error', () => {})
      await client.connect()
      try {
        await client.query('begin isolation level repeatable read read only')
        const result = await body(async (text) => (await client.query(text)).rows)
        await client.query('commit')
        return result
      } finally {
        await client.end()
      }
    },
  }
}

async function restore(file: string, config: Config) {
  const { header, trailer, target } = await restoreBackup(file, {
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
  })
  console.log(
    `Restored ${file} (Circles ${header.appVersion}, taken ${header.createdAt} from ${header.database}) into ` +
      `${target === 'postgres' ? 'PostgreSQL' : `the embedded database in ${config.dataDir}`}: ${describe(trailer)}.`,
  )
  const was = header.config as Record<string, unknown>
  console.log('The configuration it was taken with (for reference; set what differs before starting):')
  for (const [key, value] of Object.entries(was)) console.log(`  ${key}=${String(value ?? '')}`)
  if (was.PUBLIC_URL !== config.publicUrl) {
    console.log(
      `Note: PUBLIC_URL is ${config.publicUrl} here; the backup's was ${String(was.PUBLIC_URL)}. The ledger's ` +
        'signing key is named after its host: set the same PUBLIC_URL so old checkpoints keep verifying.',
    )
  }
}

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [verb, file, ...extra] = argv
  if ((verb !== 'backup' && verb !== 'restore') || !file || extra.length > 0) {
    console.error('usage: npm run backup -- <file>   |   npm run restore -- <file>')
    return 2
  }
  // npm runs scripts from the repository root; a relative name means the caller's directory.
  const resolved = path.resolve(env.INIT_CWD ?? process.cwd(), file)
  try {
    const config = loadConfig(env)
    if (verb === 'backup') await backup(resolved, config)
    else await restore(resolved, config)
    return 0
  } catch (error) {
    const known =
      error instanceof CliError ||
      error instanceof ConfigError ||
      error instanceof DataDirLockedError ||
      error instanceof BackupFileError ||
      error instanceof RestoreRefusedError ||
      error instanceof NewerBackupError
    console.error(
      known ? (error as Error).message : `${verb} failed: ${(error as Error).stack ?? String(error)}`,
    )
    return 1
  }
}

if (process.argv[1] && /backup(\.js|\/cli\.ts)$/.test(process.argv[1])) {
  process.exit(await main(process.argv.slice(2)))
}
