import { hash } from 'node:crypto'

// SHA-256 in Node (the server, the command line, tests): OpenSSL's one-shot hash, two to four times
// faster than @noble/hashes on a block's leaf and a tree node, which verify and proofs do per block.

/** A plain Uint8Array view of the digest, so no Buffer semantics (a sharing slice()) leak out. */
export function sha256(data: Uint8Array): Uint8Array {
  const digest = hash('sha256', data, 'buffer')
  return new Uint8Array(digest.buffer, digest.byteOffset, digest.byteLength)
}

/** SHA-256 of a text's UTF-8 bytes, in hex, without building the bytes in JavaScript. */
export const sha256HexOfText = (text: string): string => hash('sha256', text, 'hex')
