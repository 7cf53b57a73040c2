import { execFile } from 'node:child_process'
import { chown, mkdtemp, readdir, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** The newest installed PostgreSQL's binaries (Debian's layout), or PG_BIN. Fails, never skips. */
async function binDir(): Promise<string> {
  if (process.env.PG_BIN) return process.env.PG_BIN
  const versions = (await readdir('/usr/lib/postgresql').catch(() => [] as string[]))
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a))
  if (!versions[0]) {
    throw new Error('no PostgreSQL under /usr/lib/postgresql (apt-get install postgresql, or set PG_BIN)')
  }
  return `/usr/lib/postgresql/${versions[0]}/bin`
}

export interface PrivatePostgres {
  url: string
  stop(): Promise<void>
  start(): Promise<void>
  /** Stops the cluster and deletes its files. */
  destroy(): Promise<void>
}

/**
 * A PostgreSQL cluster of this test's own, in a temporary directory on a free port, so it can be
 * stopped and started without disturbing anything else. initdb and the server refuse to run as root:
 * as root they run as the `postgres` user (runuser), otherwise as the current user.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = await binDir()
  const root = await mkdtemp(path.join(os.tmpdir(), 'circles-pg-'))
  const dataDir = path.join(root, 'data')
  const logFile = path.join(root, 'server.log')
  const asRoot = process.getuid?.() === 0
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres'])
    const { stdout: gid } = await run('id', ['-g', 'postgres'])
    await chown(root, Number(stdout.trim()), Number(gid.trim()))
  }
  const pgRun = (tool: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args], { cwd: root })
      : run(path.join(bin, tool), args, { cwd: root })

  await pgRun('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'])
  const port = await freePort()
  const options = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${root}`,
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
  ].join(' ')
  const start = async () => {
    await pgRun('pg_ctl', ['start', '-w', '-t', '30', '-D', dataDir, '-l', logFile, '-o', options])
  }
  // -m fast: what a restart by an operator or a package upgrade does; clients get 57P01 admin_shutdown.
  const stop = async () => {
    await pgRun('pg_ctl', ['stop', '-w', '-t', '30', '-m', 'fast', '-D', dataDir])
  }
  await start()
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    async destroy() {
      await stop().catch(() => undefined)
      await rm(root, { recursive: true, force: true })
    },
  }
}
