import { sha256 as noble } from '@noble/hashes/sha2.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sha256 } from '#sha256'
import * as browsers from './sha256'
import * as node from './sha256.node'

const inNode = node.sha256
const inBrowsers = browsers.sha256

describe('SHA-256 in Node and in browsers', () => {
  it('gives the same bytes from OpenSSL and from @noble/hashes, for any input', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), (data) => {
        expect(inNode(data)).toEqual(inBrowsers(data))
      }),
    )
    // FIPS 180-2 test vector: "abc".
    expect(Buffer.from(inNode(new TextEncoder().encode('abc'))).toString('hex')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    )
  })

  it('hashes a text as its UTF-8 bytes, in both, for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (text) => {
        const expected = Buffer.from(noble(new TextEncoder().encode(text))).toString('hex')
        expect(node.sha256HexOfText(text)).toBe(expected)
        expect(browsers.sha256HexOfText(text)).toBe(expected)
      }),
    )
  })

  it('resolves #sha256 to the node:crypto one under Node', () => {
    expect(sha256).toBe(inNode)
    expect(inBrowsers).toBe(noble)
  })
})
