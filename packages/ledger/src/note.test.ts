import { ed25519 } from '@noble/curves/ed25519.js'
import { describe, expect, it } from 'vitest'
import { circleOrigin, formatCheckpoint, openCheckpoint, parseCheckpoint, signCheckpoint } from './checkpoint'
import {
  NoteError,
  openNote,
  parseSignerKey,
  parseVerifierKey,
  seedSigner,
  signNote,
  signerKey,
  verifierKey,
} from './note'

// golang.org/x/mod/sumdb/note's example (BSD-3-Clause, see testdata/signed-note/README.md).
const VKEY = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW'
const SKEY = 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz'
const TEXT =
  "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n"
const SIGNATURE =
  '\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n'
const NOTE = `${TEXT}\n${SIGNATURE}`

const newSigner = (name: string) => {
  const seed = ed25519.utils.randomSecretKey()
  return { ...seedSigner(name, seed), key: parseVerifierKey(verifierKey(name, ed25519.getPublicKey(seed))) }
}

describe('signed notes (C2SP) against the Go reference', () => {
  it('parses the keys and reproduces the published signature byte for byte', () => {
    const peter = parseVerifierKey(VKEY)
    expect(peter).toMatchObject({ name: 'PeterNeumann', id: 0xc74f20a3 })
    const { key, seed } = parseSignerKey(SKEY)
    expect(key).toEqual(peter)
    expect(verifierKey(peter.name, peter.publicKey)).toBe(VKEY)
    expect(signerKey('PeterNeumann', seed)).toBe(SKEY)
    expect(signNote(TEXT, seedSigner('PeterNeumann', seed))).toBe(NOTE)
    expect(openNote(NOTE, [peter])).toEqual({ text: TEXT, signedBy: [peter] })
  })

  it('refuses mangled keys', () => {
    for (const bad of [
      'PeterNeumann+cc469956+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TWBADKEY==',
      'PeterNeumann+c74f20a4+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW',
      'PeterNeumann+C74F20A3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW',
      'Peter Neumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW',
      'PeterNeumann+c74f20a3',
      'PeterNeumann+c74f20a3+!!!!',
    ]) {
      expect(() => parseVerifierKey(bad), bad).toThrow(NoteError)
    }
  })

  it('refuses a changed text, a bad signature by a known key, and a note no known key signed', () => {
    const peter = parseVerifierKey(VKEY)
    expect(() => openNote(NOTE.replace('cryptography', 'cryptology'), [peter])).toThrow('does not verify')
    const other = newSigner('Other')
    expect(() => openNote(NOTE, [other.key])).toThrow('no known key')
    for (const malformed of [TEXT, `${TEXT}\n`, `${TEXT}\nno dash\n`, NOTE.slice(0, -1)]) {
      expect(() => openNote(malformed, [peter])).toThrow(NoteError)
    }
  })

  it('ignores unknown signers, so keys can rotate: old, new and both verify; the unknown alone fails', () => {
    const old = newSigner('circles.example')
    const rotated = newSigner('circles.example')
    const text = 'circles.example/circle/1\n0\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n'
    const byOld = signNote(text, old)
    const byNew = signNote(text, rotated)
    const both = signNote(text, rotated, [parseSignatureLine(byOld)])
    expect(openNote(byOld, [old.key, rotated.key]).signedBy).toEqual([old.key])
    expect(openNote(byNew, [old.key, rotated.key]).signedBy).toEqual([rotated.key])
    expect(openNote(both, [old.key]).signedBy).toEqual([old.key])
    expect(() => openNote(byNew, [old.key])).toThrow('no known key')
  })
})

/** The signature line of a one-signature note, for adding to another. */
function parseSignatureLine(note: string): string {
  return note.trimEnd().split('\n').at(-1)!
}

describe('checkpoints (C2SP tlog-checkpoint)', () => {
  const root = Uint8Array.from({ length: 32 }, (_, i) => i)
  const checkpoint = {
    origin: circleOrigin('circles.example', 'c1'),
    size: 42,
    rootHash: root,
    extensions: [],
  }

  it('round-trips through text and a signed note, for the expected origin only', () => {
    expect(formatCheckpoint(checkpoint)).toBe(
      'circles.example/circle/c1\n42\nAAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=\n',
    )
    expect(parseCheckpoint(formatCheckpoint(checkpoint))).toEqual(checkpoint)
    const signer = newSigner('circles.example')
    const note = signCheckpoint(checkpoint, signer)
    expect(openCheckpoint(note, [signer.key], checkpoint.origin).checkpoint).toEqual(checkpoint)
    expect(() => openCheckpoint(note, [signer.key], circleOrigin('circles.example', 'c2'))).toThrow(
      'another log',
    )
  })

  it('refuses malformed sizes and roots', () => {
    for (const text of [
      'o\n042\nAAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=\n',
      'o\n-1\nAAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=\n',
      'o\n1\nAAEC\n',
      '\n1\nAAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=\n',
      'o\n1\nAAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=',
    ]) {
      expect(() => parseCheckpoint(text), JSON.stringify(text)).toThrow(NoteError)
    }
  })
})
