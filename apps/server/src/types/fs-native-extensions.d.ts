// The part of fs-native-extensions (which ships no types) that lib/data-dir-lock.ts uses.
declare module 'fs-native-extensions' {
  /** Requests a lock on the open file, `true` if granted, `false` if another file description holds it. */
  export function tryLock(fd: number, options?: { shared?: boolean }): boolean
}
