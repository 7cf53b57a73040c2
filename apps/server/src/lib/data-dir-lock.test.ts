import { type StdioOptions, spawn } from 'node:child_process'
import { closeSync, existsSync, openSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../db/client'
import { DataDirLockedError, LOCK_FD_ENV, LOCK_FILE, lockDataDir } from './data-dir-lock'

const serverRoot = fileURLToPath(new URL('../..', import.meta.url))

describe('lockDataDir', () => {
  const dirs: string[] = []
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))))

  it('takes the directory once, records its PID, and refuses a second taker by name and PID', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'circles-lock-'))
    dirs.push(dir)
    lockDataDir(dir)
    expect(await readFile(path.join(dir, LOCK_FILE), 'utf8')).toBe(`${process.pid}\n`)

    // A second open file description conflicts like a second process would (OFD locks).
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError)
    expect(() => lockDataDir(dir)).toThrow(`(PID ${process.pid}) is running on the data directory ${dir}.`)
    // The refused attempt did not disturb the holder's record.
    expect(await readFile(path.join(dir, LOCK_FILE), 'utf8')).toBe(`${process.pid}\n`)
  })

  it('lets different directories be locked side by side', async () => {
    const [a, b] = await Promise.all([1, 2].map(() => mkdtemp(path.join(tmpdir(), 'circles-lock-'))))
    dirs.push(a!, b!)
    expect(() => lockDataDir(a!)).not.toThrow()
    expect(() => lockDataDir(b!)).not.toThrow()
  })
})

/** Runs TypeScript source in a new Node process (through tsx), as the project's entry points run. */
function runNode(
  args: string[],
  opts: { env?: Record<string, string>; stdio4?: number } = {},
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const stdio: StdioOptions = ['ignore', 'pipe', 'pipe']
    if (opts.stdio4 !== undefined) stdio.push('ignore', opts.stdio4)
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
      cwd: serverRoot,
      env: { ...process.env, ...opts.env },
      stdio,
    })
    let output = ''
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.on('error', reject)
    child.on('exit', (code) => resolve({ code, output }))
  })
}

/** A script that takes the lock through the project's own function and says whether it got it. */
const TAKE_LOCK = (dir: string) => `
  const { holdDataDir } = await import(${JSON.stringify(path.join(serverRoot, 'src/lib/data-dir-lock.ts'))})
  try {
    holdDataDir(${JSON.stringify(dir)}, { role: 'test tool', action: 'open the database' })
    console.log('held')
  } catch (error) {
    console.log(error.message)
    process.exit(1)
  }`

// Each case starts Node processes through tsx: seconds on a busy machine, not the unit tier's 5 s.
describe('the project’s own tools on a data directory a server holds (issue 22)', { timeout: 30_000 }, () => {
  const dirs: string[] = []
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))))

  it('refuses the migration entry and opening the database, naming the server, and creates nothing', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'circles-lock-'))
    dirs.push(dir)
    // The server, as far as the kernel can tell: another process holding the lock.
    const lockModule = JSON.stringify(path.join(serverRoot, 'src/lib/data-dir-lock.ts'))
    const holder = `const { lockDataDir } = await import(${lockModule})
      lockDataDir(${JSON.stringify(dir)})
      console.log('held')
      setInterval(() => {}, 1000)`
    const server = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', holder], {
      cwd: serverRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    try {
      await new Promise<void>((resolve, reject) => {
        server.stdout.once('data', (chunk: Buffer) =>
          chunk.toString().includes('held') ? resolve() : reject(new Error(chunk.toString())),
        )
        server.once('exit', (code) => reject(new Error(`holder exited ${code}`)))
      })

      const migration = await runNode(['src/db/migrate-pglite.ts', dir])
      expect(migration.code).toBe(1)
      expect(migration.output).toContain(
        `Cannot migrate the database: a Circles server (PID ${server.pid}) is running on the data directory ${dir}`,
      )
      expect(existsSync(path.join(dir, 'db'))).toBe(false)

      await expect(openDatabase({ dataDir: dir }, { action: 'open the database' })).rejects.toThrow(
        `Cannot open the database: a Circles server (PID ${server.pid}) is running`,
      )
      expect(existsSync(path.join(dir, 'db'))).toBe(false)
    } finally {
      server.kill()
    }
  })

  it('lets a child use the lock its parent hands down, and nobody who only claims to have it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'circles-lock-'))
    dirs.push(dir)
    const fd = lockDataDir(dir)
    const claim = { env: { [LOCK_FD_ENV]: '4' } }

    const handedDown = await runNode(['--input-type=module', '-e', TAKE_LOCK(dir)], { ...claim, stdio4: fd })
    expect(handedDown).toEqual({ code: 0, output: 'held\n' })

    // The same file, opened again: a descriptor without the lock proves nothing.
    const other = openSync(path.join(dir, LOCK_FILE), 'r')
    try {
      const forged = await runNode(['--input-type=module', '-e', TAKE_LOCK(dir)], { ...claim, stdio4: other })
      expect(forged.code).toBe(1)
      expect(forged.output).toContain(`Cannot open the database: a Circles server (PID ${process.pid})`)
    } finally {
      closeSync(other)
    }
  })
})
