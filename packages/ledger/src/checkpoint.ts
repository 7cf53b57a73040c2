import { NoteError, openNote, signNote, type NoteKey, type NoteSigner } from './note'

/**
 * C2SP tlog-checkpoint (https://c2sp.org/tlog-checkpoint): the origin line, the tree size in decimal,
 * the base64 root hash, optional extension lines; carried as the text of a signed note. Circles uses
 * the origin `<host>/circle/<circleId>`, one log per circle.
 */
export interface Checkpoint {
  origin: string
  size: number
  rootHash: Uint8Array
  extensions: string[]
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))

export const circleOrigin = (host: string, circleId: string) => `${host}/circle/${circleId}`

export function formatCheckpoint(c: Checkpoint): string {
  if (!c.origin || /[\n]/.test(c.origin)) throw new NoteError('invalid origin')
  if (!Number.isSafeInteger(c.size) || c.size < 0) throw new NoteError('invalid size')
  if (c.rootHash.length !== 32) throw new NoteError('invalid root hash')
  return [c.origin, String(c.size), toBase64(c.rootHash), ...c.extensions].join('\n') + '\n'
}

export function parseCheckpoint(text: string): Checkpoint {
  if (!text.endsWith('\n')) throw new NoteError('malformed checkpoint')
  const [origin = '', size = '', root = '', ...extensions] = text.slice(0, -1).split('\n')
  if (!origin || !/^(0|[1-9][0-9]*)$/.test(size) || !Number.isSafeInteger(Number(size))) {
    throw new NoteError('malformed checkpoint')
  }
  if (!/^[A-Za-z0-9+/]{43}=$/.test(root)) throw new NoteError('malformed root hash')
  if (extensions.some((line) => line === '')) throw new NoteError('malformed checkpoint')
  const rootHash = Uint8Array.from(atob(root), (ch) => ch.charCodeAt(0))
  return { origin, size: Number(size), rootHash, extensions }
}

export function signCheckpoint(c: Checkpoint, signer: NoteSigner): string {
  return signNote(formatCheckpoint(c), signer)
}

/**
 * A checkpoint note that a known key signed, for the expected origin. Throws on a bad signature, an
 * unknown signer only, another origin, or a malformed body.
 */
export function openCheckpoint(note: string, known: readonly NoteKey[], origin?: string) {
  const { text, signedBy } = openNote(note, known)
  const checkpoint = parseCheckpoint(text)
  if (origin !== undefined && checkpoint.origin !== origin) throw new NoteError('checkpoint of another log')
  return { checkpoint, signedBy }
}
