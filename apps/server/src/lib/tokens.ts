import { createHash, randomBytes } from 'node:crypto'

/** A random hex token for links sent by email: 32 bytes, 64 hex characters. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('hex')
}

/** Tokens are stored only as this hash, so a database leak yields no usable link. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex')
}
