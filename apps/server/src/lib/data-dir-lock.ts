import { closeSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs'
import path from 'node:path'
import { tryLock } from 'fs-native-extensions'

/** The file in DATA_DIR whose lock says which process runs on that directory. */
export const LOCK_FILE = 'server.lock'

export class DataDirLockedError extends Error {}

/**
 * Takes an exclusive lock on the data directory for the life of this process, or throws
 * DataDirLockedError naming the process that holds it. The lock is the operating system's (an OFD
 * lock on Linux, flock on macOS, LockFileEx on Windows; docs/decisions/0013-data-dir-lock.md): the
 * kernel releases it when the process ends in any way, `kill -9` included, so a restart after a crash
 * is never refused, and a running server is never mistaken for a dead one.
 *
 * The file descriptor stays open until exit on purpose; the file also records the holder's PID for
 * the message a second start prints.
 */
export function lockDataDir(dataDir: string): void {
  const file = path.join(dataDir, LOCK_FILE)
  // 'a+' creates the file if missing and never truncates what the holder wrote.
  const fd = openSync(file, 'a+')
  if (!tryLock(fd)) {
    closeSync(fd)
    const holder = readFileSync(file, 'utf8').trim()
    throw new DataDirLockedError(
      `Another Circles server${/^\d+$/.test(holder) ? ` (PID ${holder})` : ''} is running on the data ` +
        `directory ${dataDir}. Two servers on one embedded database lose data, so this one stops. ` +
        'Stop the other one first, or give this one its own DATA_DIR.',
    )
  }
  ftruncateSync(fd, 0)
  writeSync(fd, `${process.pid}\n`)
}
