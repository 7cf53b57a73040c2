import { describe, expect, it } from 'vitest'
import { hashToken, randomToken } from './tokens'

describe('tokens', () => {
  it('are 64 hex characters and differ each time', () => {
    const a = randomToken()
    expect(a).toMatch(/^[0-9a-f]{64}$/)
    expect(randomToken()).not.toBe(a)
  })

  it('hash to SHA-256 hex, never to themselves', () => {
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
  })
})
