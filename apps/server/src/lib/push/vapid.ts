import { createECDH, createHash } from 'node:crypto'

/** A VAPID key pair (RFC 8292): the P-256 public key uncompressed (65 bytes) and the private scalar, base64url. */
export interface VapidKeys {
  publicKey: string
  privateKey: string
}

function publicKeyOf(privateKey: Buffer): Buffer {
  const ecdh = createECDH('prime256v1')
  ecdh.setPrivateKey(privateKey)
  return ecdh.getPublicKey()
}

/** Whether VAPID_PUBLIC_KEY belongs to VAPID_PRIVATE_KEY (config.ts refuses a mismatched pair). */
export function vapidPairMatches(keys: VapidKeys): boolean {
  try {
    return publicKeyOf(Buffer.from(keys.privateKey, 'base64url')).equals(
      Buffer.from(keys.publicKey, 'base64url'),
    )
  } catch {
    return false
  }
}

/**
 * The server's own VAPID keys, derived from the random secret it keeps in DATA_DIR (lib/secrets.ts:
 * created exclusively with mode 0600, then read, so two servers started at once agree), like the
 * ledger's checkpoint key. A hash that is no valid P-256 scalar (odds about 2^-32) is hashed again.
 */
export function vapidFromSecret(secret: string): VapidKeys {
  for (let round = 0; ; round++) {
    const scalar = createHash('sha256').update(`circles vapid key v1\n${round}\n${secret}`).digest()
    try {
      const publicKey = publicKeyOf(scalar)
      return { publicKey: publicKey.toString('base64url'), privateKey: scalar.toString('base64url') }
    } catch {
      // Zero or not below the group order: next round.
    }
  }
}
