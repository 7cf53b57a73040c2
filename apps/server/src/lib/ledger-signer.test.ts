import { openCheckpoint, parseVerifierKey, seedSigner, signCheckpoint, signerKey } from '@circles/ledger'
import { describe, expect, it } from 'vitest'
import { ledgerSigner } from './ledger-signer'

const checkpoint = {
  origin: 'circles.example/circle/0b7d3c1e-5f0a-4c1e-9a55-2f1d8e9c7a10',
  size: 3,
  rootHash: new Uint8Array(32).fill(9),
  extensions: [],
}

describe('the server ledger signer', () => {
  it('signs with node:crypto exactly as the shared package does (Ed25519 is deterministic)', () => {
    const seed = new Uint8Array(32).fill(5)
    const server = ledgerSigner('https://circles.example', signerKey('circles.example', seed))
    const shared = seedSigner('circles.example', seed)
    expect(server.publicKey).toEqual(shared.publicKey)
    expect(signCheckpoint(checkpoint, server)).toBe(signCheckpoint(checkpoint, shared))
  })

  it('derives a key named after PUBLIC_URL from the data-dir secret, whose checkpoints verify', () => {
    const signer = ledgerSigner('https://circles.example:8443/app', 'a random secret')
    expect(signer.name).toBe('circles.example:8443')
    const keys = signer.verifierKeys.map(parseVerifierKey)
    expect(openCheckpoint(signCheckpoint(checkpoint, signer), keys).checkpoint.size).toBe(3)
    // The same secret gives the same key after a restart; another secret another key.
    expect(ledgerSigner('https://circles.example:8443', 'a random secret').verifierKeys).toEqual(
      signer.verifierKeys,
    )
    expect(ledgerSigner('https://circles.example:8443', 'another').verifierKeys).not.toEqual(
      signer.verifierKeys,
    )
  })

  it('publishes earlier keys after its own, and refuses a malformed one', () => {
    const old = ledgerSigner('https://circles.example', 'old secret').verifierKeys[0]!
    expect(ledgerSigner('https://circles.example', 'new secret', [old]).verifierKeys[1]).toBe(old)
    expect(() => ledgerSigner('https://circles.example', 'new secret', ['not a key'])).toThrow()
  })
})
