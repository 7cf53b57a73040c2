import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { DataDirLockedError, LOCK_FILE, lockDataDir } from './data-dir-lock'

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
