import { hash, verify } from '@node-rs/argon2'

// argon2id (algorithm 2: the package's const enum cannot be imported under isolatedModules) with the
// OWASP-recommended minimum (19 MiB, 2 passes, 1 lane).
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 }

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS)
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password)
  } catch {
    return false
  }
}

/**
 * Compared against when the email is unknown, so a login for a missing account costs the same time
 * as one with a wrong password and does not reveal which emails exist.
 */
let dummyHash: Promise<string> | undefined
export function verifyAgainstDummy(password: string): Promise<boolean> {
  dummyHash ??= hashPassword('dummy-password-for-timing')
  return dummyHash.then((h) => verifyPassword(h, password)).then(() => false)
}
