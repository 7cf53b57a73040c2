import { ed25519 } from '@noble/curves/ed25519.js'
import { fromBase64, hex8, NoteError, toBase64, typedKeyId, validName } from './note-encoding'

/**
 * C2SP signed notes (https://c2sp.org/signed-note), Ed25519 only: a text ending in a newline, a blank
 * line, and one line per signature, `— <key name> <base64(key id || signature)>`. The key id is the first
 * four bytes of SHA-256(name || "\n" || 0x01 || public key). A note opens if a known key signed it;
 * signatures by unknown keys are ignored, so a log can rotate its key and readers keep both for a while.
 */

const ED25519 = 0x01
const DASH = '\u2014 '
const encoder = new TextEncoder()

export { NoteError }

export interface NoteKey {
  name: string
  /** The 4-byte key id as a number. */
  id: number
  publicKey: Uint8Array
}

export const keyId = (name: string, publicKey: Uint8Array): number => typedKeyId(name, ED25519, publicKey)

/** The verifier key string: `<name>+<hex key id>+<base64(0x01 || public key)>`. */
export function verifierKey(name: string, publicKey: Uint8Array): string {
  if (!validName(name) || publicKey.length !== 32) throw new NoteError('invalid key')
  return `${name}+${hex8(keyId(name, publicKey))}+${toBase64(Uint8Array.of(ED25519, ...publicKey))}`
}

export function parseVerifierKey(text: string): NoteKey {
  // The base64 key material may itself contain '+': only the first two '+' separate fields.
  const [name = '', idHex = '', ...material] = text.split('+')
  if (!validName(name) || !/^[0-9a-f]{8}$/.test(idHex)) throw new NoteError('malformed verifier key')
  const bytes = fromBase64(material.join('+'))
  if (bytes.length !== 33 || bytes[0] !== ED25519) throw new NoteError('not an Ed25519 verifier key')
  const publicKey = bytes.slice(1)
  const id = keyId(name, publicKey)
  if (hex8(id) !== idHex) throw new NoteError('key id does not match the key')
  return { name, id, publicKey }
}

/** The signer key string Go's note package uses: `PRIVATE+KEY+<name>+<hex id>+<base64(0x01 || seed)>`. */
export function parseSignerKey(text: string): { key: NoteKey; seed: Uint8Array } {
  const [tag = '', kind = '', name = '', idHex = '', ...material] = text.split('+')
  if (tag !== 'PRIVATE' || kind !== 'KEY' || !validName(name)) throw new NoteError('malformed signer key')
  const bytes = fromBase64(material.join('+'))
  if (bytes.length !== 33 || bytes[0] !== ED25519) throw new NoteError('not an Ed25519 signer key')
  const seed = bytes.slice(1)
  const publicKey = ed25519.getPublicKey(seed)
  const id = keyId(name, publicKey)
  if (hex8(id) !== idHex) throw new NoteError('key id does not match the key')
  return { key: { name, id, publicKey }, seed }
}

export function signerKey(name: string, seed: Uint8Array): string {
  const publicKey = ed25519.getPublicKey(seed)
  return `PRIVATE+KEY+${name}+${hex8(keyId(name, publicKey))}+${toBase64(Uint8Array.of(ED25519, ...seed))}`
}

/**
 * Who signs notes: the key's name and public key, and the Ed25519 signature of a message. The package's
 * `seedSigner` signs with @noble/curves (browsers, tests); the server signs with node:crypto, which is
 * some twenty times faster, and every append signs a checkpoint under the circle's lock.
 */
export interface NoteSigner {
  name: string
  publicKey: Uint8Array
  sign(message: Uint8Array): Uint8Array
}

/** A signer for a 32-byte Ed25519 seed (@noble/curves). */
export function seedSigner(name: string, seed: Uint8Array): NoteSigner {
  return { name, publicKey: ed25519.getPublicKey(seed), sign: (message) => ed25519.sign(message, seed) }
}

/** Signs `text` (which must end in a newline) and returns the whole note. */
export function signNote(text: string, signer: NoteSigner, extraSignatures: string[] = []) {
  if (!text.endsWith('\n')) throw new NoteError('the text must end in a newline')
  const id = keyId(signer.name, signer.publicKey)
  const signature = signer.sign(encoder.encode(text))
  const blob = new Uint8Array(4 + 64)
  new DataView(blob.buffer).setUint32(0, id)
  blob.set(signature, 4)
  return `${text}\n${[`${DASH}${signer.name} ${toBase64(blob)}`, ...extraSignatures].join('\n')}\n`
}

export interface SignatureLine {
  name: string
  id: number
  signature: Uint8Array
}

/** Splits a note into its text and signature lines; throws on anything malformed. */
export function parseNote(note: string): { text: string; signatures: SignatureLine[] } {
  const split = note.lastIndexOf('\n\n')
  if (split < 0 || !note.endsWith('\n')) throw new NoteError('malformed note')
  const text = note.slice(0, split + 1)
  const lines = note.slice(split + 2, -1).split('\n')
  const signatures = lines.map((line) => {
    if (!line.startsWith(DASH)) throw new NoteError('malformed signature line')
    const [name = '', blob = '', ...rest] = line.slice(DASH.length).split(' ')
    if (rest.length > 0 || !validName(name)) throw new NoteError('malformed signature line')
    const bytes = fromBase64(blob)
    if (bytes.length < 5) throw new NoteError('malformed signature')
    return { name, id: new DataView(bytes.buffer, bytes.byteOffset).getUint32(0), signature: bytes.slice(4) }
  })
  if (signatures.length === 0) throw new NoteError('a note needs a signature')
  return { text, signatures }
}

/**
 * The note's text and the known keys that signed it. Signatures by unknown keys are skipped; a
 * signature by a known key that does not verify, or no known signature at all, throws.
 */
export function openNote(note: string, known: readonly NoteKey[]): { text: string; signedBy: NoteKey[] } {
  const { text, signatures } = parseNote(note)
  const message = encoder.encode(text)
  const signedBy: NoteKey[] = []
  for (const line of signatures) {
    const key = known.find((k) => k.name === line.name && k.id === line.id)
    if (!key) continue
    if (line.signature.length !== 64 || !ed25519.verify(line.signature, message, key.publicKey)) {
      throw new NoteError(`the signature of ${key.name} does not verify`)
    }
    if (!signedBy.includes(key)) signedBy.push(key)
  }
  if (signedBy.length === 0) throw new NoteError('no known key signed this note')
  return { text, signedBy }
}

/** The Ed25519 public key of a 32-byte seed. */
export const publicKeyOf = (seed: Uint8Array): Uint8Array => ed25519.getPublicKey(seed)
