import { closeSync, fstatSync, ftruncateSync, openSync, readFileSync, statSync, writeSync } from 'node:fs'
import path from 'node:path'
import { tryLock } from 'fs-native-extensions'

/** The file in DATA_DIR whose lock says which process runs on that directory. */
export const LOCK_FILE = 'server.lock'

/**
 * The environment variable through which a process that holds the lock hands it to a child it starts
 * (the server's migration child): the number of an inherited file descriptor of the lock file.
 */
export const LOCK_FD_ENV = 'CIRCLES_DATA_DIR_LOCK_FD'

export class DataDirLockedError extends Error {}

/**
 * Who takes the lock: the server, or one of the project's own tools that open `DATA_DIR/db` (the
 * migration entry, a backup command). The tools' refusal names what they were about to do.
 */
export interface LockHolder {
  /** Recorded in the lock file after the PID, e.g. 'database migration'; absent for the server. */
  role?: string
  /** The refused action, for the message, e.g. 'migrate the database'. Absent for the server. */
  action?: string
}

/** "Circles server (PID 12)" or "Circles database migration (PID 34)", from the lock file's record. */
function describeHolder(record: string): string {
  const match = /^(\d+)(?: (.+))?$/.exec(record.trim())
  if (!match) return 'Circles server'
  return `Circles ${match[2] ?? 'server'} (PID ${match[1]})`
}

function refusal(dataDir: string, record: string, holder: LockHolder): string {
  const other = describeHolder(record)
  if (!holder.action) {
    const two = other.startsWith('Circles server') ? 'Two servers' : 'Two processes'
    return (
      `Another ${other} is running on the data directory ${dataDir}. ${two} on one embedded ` +
      'database lose data, so this one stops. Stop the other one first, or give this one its own DATA_DIR.'
    )
  }
  return (
    `Cannot ${holder.action}: a ${other} is running on the data directory ${dataDir}, and a second ` +
    'process opening its embedded database loses data. Stop it first (a copy of a running data ' +
    'directory is not a backup either; see docs/operations.md).'
  )
}

/**
 * Takes an exclusive lock on the data directory for the life of this process, or throws
 * DataDirLockedError naming the process that holds it. The lock is the operating system's (an OFD
 * lock on Linux, flock on macOS, LockFileEx on Windows; docs/decisions/0013-data-dir-lock.md): the
 * kernel releases it when the process ends in any way, `kill -9` included, so a restart after a crash
 * is never refused, and a running server is never mistaken for a dead one.
 *
 * The file descriptor stays open until exit on purpose and is returned (a child may inherit it:
 * LOCK_FD_ENV); the file also records the holder's PID (and role) for the message a second taker
 * prints. Every call opens a new file description, so a second call in one process is refused like a
 * second process; `holdDataDir` is the idempotent form.
 */
export function lockDataDir(dataDir: string, holder: LockHolder = {}): number {
  const file = path.join(dataDir, LOCK_FILE)
  // 'a+' creates the file if missing and never truncates what the holder wrote.
  const fd = openSync(file, 'a+')
  if (!tryLock(fd)) {
    closeSync(fd)
    throw new DataDirLockedError(refusal(dataDir, readFileSync(file, 'utf8'), holder))
  }
  ftruncateSync(fd, 0)
  writeSync(fd, holder.role ? `${process.pid} ${holder.role}\n` : `${process.pid}\n`)
  return fd
}

/** The locks this process holds, by resolved directory. */
const held = new Map<string, number>()

/**
 * The lock on `dataDir` for this process: the one it already holds (taken before, or inherited from
 * the parent through LOCK_FD_ENV), else a new one. Everything in the project that opens `DATA_DIR/db`
 * goes through here (db/client.ts `openDatabase`, the migration entry), so none of it can open a
 * database another process is using.
 */
export function holdDataDir(dataDir: string, holder: LockHolder = {}): number {
  const key = path.resolve(dataDir)
  const mine = held.get(key)
  if (mine !== undefined) return mine
  const inherited = inheritedLock(dataDir)
  const fd = inherited ?? lockDataDir(dataDir, holder)
  held.set(key, fd)
  return fd
}

/**
 * The lock handed down by the parent, if LOCK_FD_ENV names a descriptor of this directory's lock file
 * that holds the lock. A descriptor of any other file, or one without the lock, proves nothing: then
 * this process must take the lock itself like any other.
 */
function inheritedLock(dataDir: string): number | undefined {
  const fd = Number(process.env[LOCK_FD_ENV])
  if (!Number.isInteger(fd) || fd < 0) return undefined
  try {
    const mine = fstatSync(fd)
    const file = statSync(path.join(dataDir, LOCK_FILE))
    if (mine.dev !== file.dev || mine.ino !== file.ino) return undefined
    // The same open file description as the parent's: an OFD lock (flock on macOS) it already holds.
    return tryLock(fd) ? fd : undefined
  } catch {
    return undefined
  }
}
