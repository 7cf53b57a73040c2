import { createHash, createPrivateKey, createPublicKey, sign } from 'node:crypto'
import { parseSignerKey, parseVerifierKey, verifierKey, type NoteSigner } from '@circles/ledger'

export interface LedgerSigner extends NoteSigner {
  /** This key's verifier key, then those of earlier keys (still published, so old checkpoints verify). */
  verifierKeys: string[]
}

/** PKCS#8 DER prefix of an Ed25519 private key (RFC 8410): the 32-byte seed follows. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex')

/**
 * The server's checkpoint key (issue 14). `secret` is either a signer key in Go's `PRIVATE+KEY+…` form
 * (LEDGER_SIGNING_KEY) or the random secret generated into DATA_DIR, from which the Ed25519 seed is
 * derived. The name is PUBLIC_URL's host, unless the given key names itself. Signs with node:crypto
 * (OpenSSL): every append signs under the circle's lock, so its speed is the ledger's.
 */
export function ledgerSigner(
  publicUrl: string,
  secret: string,
  previous: readonly string[] = [],
): LedgerSigner {
  for (const key of previous) parseVerifierKey(key)
  const given = secret.startsWith('PRIVATE+KEY+') ? parseSignerKey(secret) : undefined
  const seed =
    given?.seed ??
    new Uint8Array(createHash('sha256').update(`circles ledger signing key v1\n${secret}`).digest())
  const name = given?.key.name ?? new URL(publicUrl).host
  const privateKey = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  })
  // From OpenSSL too (the last 32 bytes of the SPKI DER): @noble/curves would first build its tables,
  // about 0.3 s of CPU at every start (docs/decisions/0045).
  const publicKey = new Uint8Array(
    createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(-32),
  )
  return {
    name,
    publicKey,
    sign: (message) => new Uint8Array(sign(null, message, privateKey)),
    verifierKeys: [verifierKey(name, publicKey), ...previous],
  }
}
