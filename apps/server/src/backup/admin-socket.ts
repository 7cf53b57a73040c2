/**
 * The running embedded server's backup door: a Unix socket in DATA_DIR (mode 0600, so only the
 * server's own user may connect). PGlite is one process's database, and the DATA_DIR lock keeps every
 * other process out of it, so the backup command asks the server for the snapshot instead
 * (docs/decisions/0040). The client writes `backup\n`; the server answers with the gzip'd backup, or
 * with `ERROR <message>\n`, and closes.
 */
import { chmod, rm } from 'node:fs/promises'
import net from 'node:net'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../config'
import type { Database } from '../db/client'
import { type Query, writeSnapshot } from './snapshot'

export const ADMIN_SOCKET = 'admin.sock'

/** Linux's sun_path holds 108 bytes with the terminating NUL (macOS: 104). */
export const SOCKET_PATH_LIMIT = process.platform === 'linux' ? 107 : 103

export const adminSocketPath = (dataDir: string) => path.join(dataDir, ADMIN_SOCKET)

export function socketPathProblem(socketPath: string): string | undefined {
  const length = Buffer.byteLength(socketPath)
  if (length <= SOCKET_PATH_LIMIT) return undefined
  return (
    `The backup socket ${socketPath} is ${length} bytes long; the system allows ${SOCKET_PATH_LIMIT}. ` +
    'Use a shorter DATA_DIR path to back up the running server (or stop the server and run the backup ' +
    'command, which then opens the database itself).'
  )
}

/** The embedded database's snapshot, inside one transaction of its single connection. */
export function pgliteSnapshotSource(config: Config, database: Database) {
  return {
    kind: 'pglite' as const,
    dataDir: config.dataDir,
    config,
    inSnapshot: <T>(body: (query: Query) => Promise<T>) =>
      database.db.transaction(async (tx) =>
        body(
          async (text) =>
            ((await tx.execute(sql.raw(text))) as unknown as { rows: Record<string, unknown>[] }).rows,
        ),
      ),
  }
}

/**
 * Listens on DATA_DIR/admin.sock while the app runs (embedded mode only; the caller holds the DATA_DIR
 * lock, so a socket file left by a crashed server is ours to replace). Closed and removed with the app.
 */
export async function listenForBackups(app: FastifyInstance, config: Config, database: Database) {
  const socketPath = adminSocketPath(config.dataDir)
  const problem = socketPathProblem(socketPath)
  if (problem) {
    app.log.warn(problem)
    return
  }
  const connections = new Set<net.Socket>()
  const server = net.createServer((socket) => {
    connections.add(socket)
    socket.on('close', () => connections.delete(socket))
    socket.on('error', () => {})
    let request = ''
    const onData = (chunk: Buffer) => {
      request += chunk.toString('utf8')
      if (!request.includes('\n')) {
        if (request.length > 100) socket.destroy()
        return
      }
      socket.off('data', onData)
      if (request.trim() !== 'backup') {
        socket.end('ERROR unknown command\n')
        return
      }
      const started = Date.now()
      writeSnapshot(pgliteSnapshotSource(config, database), socket).then(
        (trailer) =>
          app.log.info(
            { ms: Date.now() - started, uploads: trailer.counts.uploads },
            'backup written to the backup command',
          ),
        (error: unknown) => {
          app.log.error({ err: error }, 'backup failed')
          socket.destroy()
        },
      )
    }
    socket.on('data', onData)
  })
  await rm(socketPath, { force: true })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(socketPath, () => {
      server.off('error', reject)
      resolve()
    })
  })
  await chmod(socketPath, 0o600)
  server.unref()
  app.addHook('onClose', async () => {
    for (const socket of connections) socket.destroy()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    await rm(socketPath, { force: true })
  })
}
