import { createHash } from 'node:crypto'
import { parseSignerKey, parseVerifierKey, publicKeyOf, verifierKey } from '@circles/ledger'

export interface LedgerSigner {
  /** The signed-note key name: PUBLIC_URL's host, unless the given key names itself. */
  name: string
  seed: Uint8Array
  /** This key's verifier key, then those of earlier keys (still published, so old checkpoints verify). */
  verifierKeys: string[]
}

/**
 * The server's checkpoint key (issue 14). `secret` is either a signer key in Go's `PRIVATE+KEY+…` form
 * (LEDGER_SIGNING_KEY) or the random secret generated into DATA_DIR, from which the Ed25519 seed is
 * derived.
 */
export function ledgerSigner(
  publicUrl: string,
  secret: string,
  previous: readonly string[] = [],
): LedgerSigner {
  for (const key of previous) parseVerifierKey(key)
  if (secret.startsWith('PRIVATE+KEY+')) {
    const { key, seed } = parseSignerKey(secret)
    return { name: key.name, seed, verifierKeys: [verifierKey(key.name, key.publicKey), ...previous] }
  }
  const seed = createHash('sha256').update(`circles ledger signing key v1\n${secret}`).digest()
  const name = new URL(publicUrl).host
  return {
    name,
    seed: new Uint8Array(seed),
    verifierKeys: [verifierKey(name, publicKeyOf(seed)), ...previous],
  }
}
