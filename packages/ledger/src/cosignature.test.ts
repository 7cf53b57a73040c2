import { ed25519 } from '@noble/curves/ed25519.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { circleOrigin, formatCheckpoint, openCheckpoint, signCheckpoint } from './checkpoint'
import {
  addSignatureLines,
  cosign,
  cosignatureMessage,
  cosignaturesOf,
  cosignerKeyId,
  cosignerVerifierKey,
  formatCosignatureLine,
  openCosignedNote,
  parseCosignatureLine,
  parseCosignerKey,
  usableCosignerKey,
  verifyCosignature,
} from './cosignature'
import { keyId, NoteError, parseVerifierKey, seedSigner, verifierKey } from './note'

// A real checkpoint of the arche2025h1 staging CT log (transparency.dev), as it was published with the
// cosignatures of public witnesses, and the witness remora.n621.de's Ed25519 cosigner key (see
// testdata/cosignature/README.md). Its lines of other keys (the log's RFC 6962 and Ed25519 signatures,
// other witnesses) are unknown here and must be skipped.
const ARCHE_TEXT =
  'arche2025h1.staging.ct.transparency.dev\n1432088532\nU7WM79jrzyhGZ5/GUBTpM7NzwdyfFx61t3RovgcC4Ro=\n'
const ARCHE_NOTE = `${ARCHE_TEXT}
— arche2025h1.staging.ct.transparency.dev zTM8sQAAAZ5W0WdjBAMARjBEAiBjW5IQf9pvsYLfQFX6hoGREPMHbdQ3urbllzalApkptQIgIpwtEroeW2BXaHAI4kJXFbon5Ch9MNL5zRNZ55lvGt0=
— arche2025h1.staging.ct.transparency.dev ui8GwCF1+kWqZrxGdhj4aX3gcw7XUlXQQabg/27lefwhUkzbC3NygNI75MdhL1bfTW9g8Ei59RA23oHP7Ry1k3ZFWwQ=
— transparency.dev/DEV:witness-little-garden 2AQqhwAAAABqEiEgzgFIqqhbUoDwjMWE6UP8nd8/KYTzwZ2rhIgcqoXHAwVkjZr4AscylP3v7sEodkRAErumC2q44vdgJY096st5BQ==
— witness1.smartit.nu/witness1 pIyCDwAAAABqEiEghIp82KWebrw7/oHQwlTAm3g2RKS4+eebl8eO0WH+/iEcxZ75W3u5hNI7TOQtmJbqmNWVuE0tgh0XwzdZsDsUAQ==
— remora.n621.de 2net5wAAAABqEiEgPlfF3V06o0Y+fHM+J5J9s27wgxxcOVSpZ/2g/KSiXCg9DEZI+aVCIobWX9sXTynk5XeU/zZ0WBxtqB0DrAWfBw==
— witness.stagemole.eu Z/euoAAAAABqEiEgw0i+7g2ENfDAWHmtRzCfKTHSDwYDJA2NmKeGi9Y8FtEyOUvVr+AJmIY/2TUFucgKi7lI7cUiOvKFYe/TmN9DAg==
`
const ARCHE_LOG_KEY =
  'arche2025h1.staging.ct.transparency.dev+ba2f06c0+AU0vHmlGCS/PdN8b2OaGmKprLI8HKM+dJ472xgFYh15f'
const REMORA = 'remora.n621.de+da77ade7+BOvN63jn/bLvkieywe8R6UYAtVtNbZpXh34x7onlmtw2'
// transparency-dev/formats note_cosigv1_test.go: a cosignature's blob and its time.
const FORMATS_BLOB =
  'ZGhGuQAAAABm/qTPeyKXD+R2rzyQsxPiP8mXum7qq/iF0u4vanlqJyocWODBt97w9uL+8qT7S5gxEHWWOworDcFiEBYJXORmnFBOBA=='

const newWitness = (name: string) => {
  const seed = ed25519.utils.randomSecretKey()
  const signer = seedSigner(name, seed)
  return { signer, key: parseCosignerKey(cosignerVerifierKey(name, signer.publicKey)) }
}
const newLog = (name: string) => {
  const seed = ed25519.utils.randomSecretKey()
  const signer = seedSigner(name, seed)
  return { signer, key: parseVerifierKey(verifierKey(name, signer.publicKey)) }
}
const root = Uint8Array.from({ length: 32 }, (_, i) => i * 7)
const checkpoint = { origin: circleOrigin('circles.example', 'c1'), size: 9, rootHash: root, extensions: [] }

describe('cosignatures (C2SP tlog-cosignature, Ed25519) against published ones', () => {
  it('reads a witness key and verifies its cosignature on a real checkpoint, skipping other keys', () => {
    const remora = parseCosignerKey(REMORA)
    expect(remora).toMatchObject({ name: 'remora.n621.de', id: 0xda77ade7 })
    expect(cosignerVerifierKey(remora.name, remora.publicKey)).toBe(REMORA)
    expect(cosignaturesOf(ARCHE_NOTE, [remora])).toEqual([{ key: remora, timestamp: 1779573024 }])
    // The log's own Ed25519 line opens the note; the cosigner key is not a note key (another type byte).
    const log = parseVerifierKey(ARCHE_LOG_KEY)
    expect(openCosignedNote(ARCHE_NOTE, [log], [remora]).cosignedBy).toHaveLength(1)
    const asNoteKey = { ...remora, id: keyId(remora.name, remora.publicKey) }
    expect(() => openCheckpoint(ARCHE_NOTE, [asNoteKey])).toThrow('no known key')
  })

  it('refuses the real cosignature on a changed size or root', () => {
    const remora = parseCosignerKey(REMORA)
    for (const changed of [
      ARCHE_NOTE.replace('1432088532', '1432088533'),
      ARCHE_NOTE.replace('U7WM79', 'U7WM78'),
    ]) {
      expect(() => cosignaturesOf(changed, [remora])).toThrow('does not verify')
    }
  })

  it('reads the time of a cosignature as Go does', () => {
    const cosignature = parseCosignatureLine(`— any.example/w ${FORMATS_BLOB}`)
    expect(cosignature).toMatchObject({ name: 'any.example/w', id: 0x646846b9, timestamp: 1727964367 })
    expect(formatCosignatureLine(cosignature)).toBe(`— any.example/w ${FORMATS_BLOB}`)
    // A plain Ed25519 note signature (68 bytes) is not a cosignature.
    expect(() =>
      parseCosignatureLine(
        '— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=',
      ),
    ).toThrow(NoteError)
  })

  it('signs exactly the message of the specification', () => {
    const text = 'example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n'
    expect(new TextDecoder().decode(cosignatureMessage(text, 1679315147))).toBe(
      'cosignature/v1\ntime 1679315147\nexample.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n',
    )
    for (const bad of [0, -1, 1.5, 2 ** 53]) expect(() => cosignatureMessage(text, bad)).toThrow(NoteError)
  })
})

describe('cosigner keys', () => {
  it('uses type 0x04 in the key id and the key, never the note type 0x01', () => {
    const { signer } = newWitness('circles.example/witness/a')
    const vkey = cosignerVerifierKey(signer.name, signer.publicKey)
    expect(vkey.split('+')[2]!.startsWith('B')).toBe(true) // base64 of 0x04 …
    expect(cosignerKeyId(signer.name, signer.publicKey)).not.toBe(keyId(signer.name, signer.publicKey))
    expect(() => parseCosignerKey(verifierKey(signer.name, signer.publicKey))).toThrow('not an Ed25519')
    expect(() => parseVerifierKey(vkey)).toThrow(NoteError)
  })

  it('takes only curve points of large order as witness keys', () => {
    expect(usableCosignerKey(newWitness('w').signer.publicKey)).toBe(true)
    expect(usableCosignerKey(parseCosignerKey(REMORA).publicKey)).toBe(true)
    const identity = Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? 1 : 0))
    for (const bad of [identity, new Uint8Array(32).fill(0xff), new Uint8Array(31)]) {
      expect(usableCosignerKey(bad)).toBe(false)
    }
  })

  it('refuses mangled keys', () => {
    for (const bad of [
      'remora.n621.de+da77ade8+BOvN63jn/bLvkieywe8R6UYAtVtNbZpXh34x7onlmtw2',
      'remora.n621.de+DA77ADE7+BOvN63jn/bLvkieywe8R6UYAtVtNbZpXh34x7onlmtw2',
      'remora n621.de+da77ade7+BOvN63jn/bLvkieywe8R6UYAtVtNbZpXh34x7onlmtw2',
      'remora.n621.de+da77ade7+BOvN63jn/bLvkieywe8R6UYAtVtNbZpXh34x7onlmt',
      'remora.n621.de+da77ade7',
      'TEST+7997405c+AQcC+FTVKf0jlTdHDY3rbevmnKxxPjigCXlVtGe6RIr6',
    ]) {
      expect(() => parseCosignerKey(bad), bad).toThrow(NoteError)
    }
  })
})

describe('cosigning a checkpoint', () => {
  it('round-trips any checkpoint text, time and key name; any changed byte fails (fast-check)', () => {
    const name = fc.stringMatching(/^[a-z0-9./:-]{1,40}$/)
    const line = fc.stringMatching(/^[a-zA-Z0-9 /+=.-]{1,60}$/)
    fc.assert(
      fc.property(
        name,
        fc.array(line, { minLength: 3, maxLength: 5 }),
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        fc.nat(),
        (witnessName, lines, timestamp, flip) => {
          const { signer, key } = newWitness(witnessName)
          const text = `${lines.join('\n')}\n`
          const cosignature = parseCosignatureLine(cosign(text, signer, timestamp))
          expect(cosignature).toMatchObject({ name: witnessName, id: key.id, timestamp })
          expect(verifyCosignature(text, cosignature, key)).toBe(true)
          const bytes = new TextEncoder().encode(text)
          bytes[flip % (bytes.length - 1)]! ^= 1
          expect(verifyCosignature(new TextDecoder().decode(bytes), cosignature, key)).toBe(false)
          expect(verifyCosignature(text, { ...cosignature, timestamp: timestamp + 1 }, key)).toBe(false)
        },
      ),
      { numRuns: 40 },
    )
  })

  it("adds members' lines to the log's note: old readers still open it, new ones see who cosigned", () => {
    const log = newLog('circles.example')
    const ida = newWitness('circles.example/witness/ida')
    const ben = newWitness('circles.example/witness/ben')
    const note = signCheckpoint(checkpoint, log.signer)
    const text = formatCheckpoint(checkpoint)
    const lines = [cosign(text, ida.signer, 1_800_000_000), cosign(text, ben.signer, 1_800_000_005)]
    const cosigned = addSignatureLines(note, [...lines, lines[0]!])
    expect(cosigned.startsWith(note)).toBe(true)
    expect(cosigned.split('\u2014')).toHaveLength(4)
    expect(addSignatureLines(cosigned, lines)).toBe(cosigned)
    expect(openCheckpoint(cosigned, [log.key], checkpoint.origin).checkpoint).toEqual(checkpoint)
    expect(openCosignedNote(cosigned, [log.key], [ida.key, ben.key]).cosignedBy).toEqual([
      { key: ida.key, timestamp: 1_800_000_000 },
      { key: ben.key, timestamp: 1_800_000_005 },
    ])
    // Only the known cosigners count.
    expect(cosignaturesOf(cosigned, [ben.key])).toEqual([{ key: ben.key, timestamp: 1_800_000_005 }])
  })

  it('refuses a cosignature on another checkpoint, and a line that is no signature line', () => {
    const log = newLog('circles.example')
    const ida = newWitness('circles.example/witness/ida')
    const note = signCheckpoint(checkpoint, log.signer)
    const other = formatCheckpoint({ ...checkpoint, rootHash: new Uint8Array(32) })
    const forged = addSignatureLines(note, [cosign(other, ida.signer, 1_800_000_000)])
    expect(() => cosignaturesOf(forged, [ida.key])).toThrow('does not verify')
    expect(() => openCosignedNote(forged, [log.key], [ida.key])).toThrow('does not verify')
    for (const bad of ['no dash', '\u2014 a b\n\u2014 c d']) {
      expect(() => addSignatureLines(note, [bad])).toThrow(NoteError)
    }
    expect(() => addSignatureLines('not a note', [])).toThrow(NoteError)
  })
})
