import { sha256 } from '#sha256'

/**
 * What signed notes and cosignatures share (C2SP signed-note): base64, key names, key ids. Internal to
 * the package (index.ts does not export it).
 */

export class NoteError extends Error {
  override readonly name = 'NoteError'
}

const encoder = new TextEncoder()

export const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))

export function fromBase64(text: string): Uint8Array {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) throw new NoteError('malformed base64')
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
}

export function validName(name: string): boolean {
  return name.length > 0 && !/[\s+]/.test(name) && !name.includes('\u2014')
}

/** SHA-256(name || "\n" || signature type || public key)[:4] as a big-endian number. */
export function typedKeyId(name: string, type: number, publicKey: Uint8Array): number {
  const name8 = encoder.encode(`${name}\n`)
  const input = new Uint8Array(name8.length + 1 + publicKey.length)
  input.set(name8)
  input[name8.length] = type
  input.set(publicKey, name8.length + 1)
  const hash = sha256(input)
  return ((hash[0]! << 24) | (hash[1]! << 16) | (hash[2]! << 8) | hash[3]!) >>> 0
}

export const hex8 = (id: number) => id.toString(16).padStart(8, '0')
