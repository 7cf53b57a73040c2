/**
 * Issue 25: the backup command on the embedded default while the real server process runs on the data
 * directory and serves requests. The server holds the DATA_DIR lock, so the command asks it, over
 * DATA_DIR/admin.sock, for a snapshot it takes in one transaction. Embedded only (the PGlite run).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { adminSocketPath, socketPathProblem } from '../src/backup/admin-socket'
import { validateBackup } from '../src/backup/format'
import { restoreBackup } from '../src/backup/restore'
import { pgliteDataDir, pgliteExtensions } from '../src/db/client'
import { DataDirLockedError } from '../src/lib/data-dir-lock'
import { freePort } from './support/smtp-sink'

const serverRoot = fileURLToPath(new URL('..', import.meta.url))
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url))
/** The test's own build of the server (build.mjs, as `npm run build` makes it), beside dist/'s. */
const outdir = `dist/.backup-test-${randomBytes(4).toString('hex')}`
const built = (name: string) => path.join(serverRoot, outdir, name)
const temporary: string[] = [path.join(serverRoot, outdir)]

afterAll(async () => {
  for (const dir of temporary) await rm(dir, { recursive: true, force: true })
})

async function tempDir(prefix: string) {
  const dir = await mkdtemp(path.join(os.tmpdir(), `circles-${prefix}-`))
  temporary.push(dir)
  return dir
}

/** Runs a process to its end; its exit code and output. */
function run(child: ChildProcess) {
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, output })),
  )
}

async function until(what: string, check: () => Promise<boolean>, ms = 30_000) {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`${what}: not within ${ms} ms`)
}

describe.skipIf(Boolean(process.env.DATABASE_URL))('backup of the running embedded server', () => {
  beforeAll(async () => {
    const { code, output } = await run(
      spawn(process.execPath, ['build.mjs', '--outdir', outdir], {
        cwd: serverRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    )
    if (code !== 0) throw new Error(`build failed: ${output}`)
  }, 60_000)

  it('the server answers on its socket while it serves requests; the socket goes with it', async () => {
    const dataDir = await tempDir('running')
    // A migrated database from the suite's template, so the server's start skips a fresh initdb.
    const template = await readFile(inject('pgliteTemplate'))
    await (
      await PGlite.create({
        dataDir: pgliteDataDir(dataDir),
        loadDataDir: new Blob([template]),
        extensions: pgliteExtensions,
      })
    ).close()
    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    const env = {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      RATE_LIMITS: 'off',
    }
    const server = spawn(process.execPath, [built('server.js')], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const serverDone = run(server)
    try {
      await until(
        'server ready',
        async () => server.exitCode === null && (await fetch(`${url}/api/ready`)).ok,
      )
      expect((await stat(adminSocketPath(dataDir))).mode & 0o777).toBe(0o600)

      let registered = 0
      const register = async () => {
        const res = await fetch(`${url}/api/users/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            name: `Member ${registered}`,
            email: `member-${registered}-${port}@example.com`,
            password: 'correct horse battery',
          }),
        })
        expect(res.status).toBe(201)
        registered += 1
      }
      for (let i = 0; i < 3; i++) await register()

      const file = path.join(await tempDir('file'), 'live.backup')
      const backup = spawn(process.execPath, [built('backup.js'), 'backup', file], {
        cwd: repoRoot,
        env: { PATH: process.env.PATH, DATA_DIR: dataDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      const backupDone = run(backup)
      // Requests keep being served while the backup is taken: none fails.
      let served = 0
      while (backup.exitCode === null) {
        await register()
        expect((await fetch(`${url}/api/health`)).status).toBe(200)
        served += 1
      }
      const { code, output } = await backupDone
      expect(code, output).toBe(0)
      expect(output).toContain('by the running server')
      expect(served).toBeGreaterThan(0)

      expect((await stat(file)).mode & 0o777).toBe(0o600)
      const { header, trailer } = await validateBackup(file)
      expect(header.database).toBe('pglite')
      expect(header.config.PUBLIC_URL).toBe(url)
      expect(trailer.counts.tables.users).toBeGreaterThanOrEqual(3)
      expect(trailer.counts.tables.users).toBeLessThanOrEqual(registered)
      // The session key, the ledger's signing key and (issue 27) the VAPID key of push notices.
      expect(trailer.counts.secrets).toBe(3)

      // The running server's own directory is no target: its lock says so.
      await expect(restoreBackup(file, { dataDir })).rejects.toThrow(DataDirLockedError)
      await expect(restoreBackup(file, { dataDir })).rejects.toThrow(
        /Cannot restore a backup: a Circles server/,
      )
    } finally {
      server.kill('SIGTERM')
    }
    const { code } = await serverDone
    expect(code).toBe(0)
    expect(await stat(adminSocketPath(dataDir)).catch(() => null)).toBeNull()
    // Two PGlite starts (the server's migration child, then the server) and two processes: about 5 s on
    // an idle machine, 25 s on a busy one.
  }, 60_000)

  it('names the socket path limit instead of failing obscurely', () => {
    expect(socketPathProblem('/srv/circles/admin.sock')).toBeUndefined()
    expect(socketPathProblem(`/${'x'.repeat(120)}/admin.sock`)).toMatch(
      /bytes long; the system allows 10[37]/,
    )
  })
})
