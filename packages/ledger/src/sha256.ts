import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'

// SHA-256 outside Node (browsers): @noble/hashes, audited and synchronous (WebCrypto's digest is
// asynchronous only, and the tree hashes hundreds of thousands of 65-byte nodes). Node resolves
// '#sha256' to ./sha256.node.ts instead (package.json "imports"): the same bytes from OpenSSL.
export { sha256 }

/** SHA-256 of a text's UTF-8 bytes, in hex. */
export const sha256HexOfText = (text: string): string => bytesToHex(sha256(utf8ToBytes(text)))
