import { ed25519 } from '@noble/curves/ed25519.js'
import { fromBase64, hex8, NoteError, toBase64, typedKeyId, validName } from './note-encoding'
import { type NoteKey, type NoteSigner, openNote, parseNote, type SignatureLine } from './note'

/**
 * C2SP tlog-cosignature (https://c2sp.org/tlog-cosignature), Ed25519 (signature type 0x04): a witness's
 * statement that, at its time, the checkpoint is the largest consistent tree it has seen of that log. It
 * is one more signature line on the checkpoint's note, `— <name> base64(key id || uint64 time || sig)`,
 * the signature over "cosignature/v1\ntime <seconds>\n" and the checkpoint's whole text. The key id is
 * SHA-256(name || "\n" || 0x04 || public key)[:4], so a cosigner key never opens a plain note and a note
 * key never opens a cosignature. Readers that do not know a cosigner skip its line (signed-note rules):
 * a checkpoint with cosignatures still opens with the log's key alone.
 */

export const COSIGNATURE_V1 = 0x04
const DASH = '\u2014 '
const encoder = new TextEncoder()
/** Seconds as a JavaScript number stay exact to 2^53 - 1 (the spec allows up to 2^63 - 1). */
const MAX_TIME = Number.MAX_SAFE_INTEGER

export interface Cosignature {
  name: string
  /** The 4-byte key id as a number. */
  id: number
  /** When the cosigner signed, in POSIX seconds. */
  timestamp: number
  signature: Uint8Array
}

export const cosignerKeyId = (name: string, publicKey: Uint8Array): number =>
  typedKeyId(name, COSIGNATURE_V1, publicKey)

/** A cosigner's verifier key: `<name>+<hex key id>+base64(0x04 || public key)`. */
export function cosignerVerifierKey(name: string, publicKey: Uint8Array): string {
  if (!validName(name) || publicKey.length !== 32) throw new NoteError('invalid key')
  const material = toBase64(Uint8Array.of(COSIGNATURE_V1, ...publicKey))
  return `${name}+${hex8(cosignerKeyId(name, publicKey))}+${material}`
}

/** Reads a cosigner's verifier key (type 0x04 only); throws on anything else or a wrong key id. */
export function parseCosignerKey(text: string): NoteKey {
  const [name = '', idHex = '', ...material] = text.split('+')
  if (!validName(name) || !/^[0-9a-f]{8}$/.test(idHex)) throw new NoteError('malformed verifier key')
  const bytes = fromBase64(material.join('+'))
  if (bytes.length !== 33 || bytes[0] !== COSIGNATURE_V1) {
    throw new NoteError('not an Ed25519 cosigner key')
  }
  const publicKey = bytes.slice(1)
  const id = cosignerKeyId(name, publicKey)
  if (hex8(id) !== idHex) throw new NoteError('key id does not match the key')
  return { name, id, publicKey }
}

/** Whether 32 bytes are an Ed25519 public key fit for a witness: a point of the curve, not of small order. */
export function usableCosignerKey(publicKey: Uint8Array): boolean {
  if (publicKey.length !== 32) return false
  try {
    return !ed25519.Point.fromBytes(publicKey).isSmallOrder()
  } catch {
    return false
  }
}

function validTime(timestamp: number): boolean {
  return Number.isSafeInteger(timestamp) && timestamp > 0 && timestamp <= MAX_TIME
}

/** The bytes a cosigner signs: the header line, the time line, then the checkpoint's text. */
export function cosignatureMessage(text: string, timestamp: number): Uint8Array {
  if (!validTime(timestamp)) throw new NoteError('invalid cosignature time')
  if (!text.endsWith('\n')) throw new NoteError('the text must end in a newline')
  return encoder.encode(`cosignature/v1\ntime ${timestamp}\n${text}`)
}

/** A cosignature as its signature line (without the final newline). */
export function formatCosignatureLine(cosignature: Cosignature): string {
  const { name, id, timestamp, signature } = cosignature
  if (!validName(name) || signature.length !== 64 || !validTime(timestamp)) {
    throw new NoteError('invalid cosignature')
  }
  const blob = new Uint8Array(4 + 8 + 64)
  const view = new DataView(blob.buffer)
  view.setUint32(0, id)
  view.setBigUint64(4, BigInt(timestamp))
  blob.set(signature, 12)
  return `${DASH}${name} ${toBase64(blob)}`
}

/** A parsed signature line as a cosignature; throws unless it has exactly the Ed25519 v1 shape. */
export function asCosignature(line: SignatureLine): Cosignature {
  const bytes = line.signature
  if (bytes.length !== 8 + 64) throw new NoteError('not an Ed25519 cosignature')
  const time = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(0)
  if (time === 0n || time > BigInt(MAX_TIME)) throw new NoteError('invalid cosignature time')
  return { name: line.name, id: line.id, timestamp: Number(time), signature: bytes.slice(8) }
}

/** Reads one signature line (`— <name> <base64>`) as a cosignature; throws on anything else. */
export function parseCosignatureLine(line: string): Cosignature {
  if (!line.startsWith(DASH)) throw new NoteError('malformed signature line')
  const [name = '', blob = '', ...rest] = line.slice(DASH.length).split(' ')
  if (rest.length > 0 || !validName(name)) throw new NoteError('malformed signature line')
  const bytes = fromBase64(blob)
  if (bytes.length < 4) throw new NoteError('malformed signature')
  const id = new DataView(bytes.buffer, bytes.byteOffset).getUint32(0)
  return asCosignature({ name, id, signature: bytes.slice(4) })
}

/** Cosigns a checkpoint's text (ending in a newline) at `timestamp`: the signature line. */
export function cosign(text: string, signer: NoteSigner, timestamp: number): string {
  const signature = signer.sign(cosignatureMessage(text, timestamp))
  const id = cosignerKeyId(signer.name, signer.publicKey)
  return formatCosignatureLine({ name: signer.name, id, timestamp, signature })
}

/** Whether `cosignature` is `key`'s, over exactly this text. */
export function verifyCosignature(text: string, cosignature: Cosignature, key: NoteKey): boolean {
  if (cosignature.name !== key.name || cosignature.id !== key.id) return false
  if (cosignature.signature.length !== 64 || !validTime(cosignature.timestamp)) return false
  try {
    return ed25519.verify(
      cosignature.signature,
      cosignatureMessage(text, cosignature.timestamp),
      key.publicKey,
    )
  } catch {
    return false
  }
}

/**
 * The note with these signature lines added after its own, each once (a line already on the note is not
 * repeated). The note's text and its other signatures stay as they are.
 */
export function addSignatureLines(note: string, lines: readonly string[]): string {
  parseNote(note)
  const present = new Set(note.slice(note.lastIndexOf('\n\n') + 2, -1).split('\n'))
  const added: string[] = []
  for (const line of lines) {
    if (!line.startsWith(DASH) || line.includes('\n')) throw new NoteError('malformed signature line')
    if (present.has(line)) continue
    present.add(line)
    added.push(line)
  }
  return added.length === 0 ? note : `${note}${added.join('\n')}\n`
}

export interface Cosigned {
  key: NoteKey
  timestamp: number
}

/**
 * The known cosigners whose cosignatures on the note verify, with their times (the newest per key).
 * Lines of unknown keys are skipped; a line of a known cosigner that does not verify throws, as a bad
 * signature by a known key does in `openNote`. Does not check the log's own signature: `openNote` does.
 */
export function cosignaturesOf(note: string, cosigners: readonly NoteKey[]): Cosigned[] {
  const { text, signatures } = parseNote(note)
  const found = new Map<NoteKey, number>()
  for (const line of signatures) {
    const key = cosigners.find((k) => k.name === line.name && k.id === line.id)
    if (!key) continue
    const cosignature = asCosignature(line)
    if (!verifyCosignature(text, cosignature, key)) {
      throw new NoteError(`the cosignature of ${key.name} does not verify`)
    }
    found.set(key, Math.max(found.get(key) ?? 0, cosignature.timestamp))
  }
  return [...found].map(([key, timestamp]) => ({ key, timestamp }))
}

/**
 * A note the log signed (one of `logKeys`), with the verified cosignatures of the known cosigners.
 * Throws as `openNote` does, and on a known cosigner's line that does not verify.
 */
export function openCosignedNote(
  note: string,
  logKeys: readonly NoteKey[],
  cosigners: readonly NoteKey[],
): { text: string; signedBy: NoteKey[]; cosignedBy: Cosigned[] } {
  const opened = openNote(note, logKeys)
  return { ...opened, cosignedBy: cosignaturesOf(note, cosigners) }
}
