import { describe, expect, it } from 'vitest'
import { hostIsPublic, isPublicAddress } from './public-address'

describe('push endpoints only on the public internet (docs/decisions/0053)', () => {
  it('refuses loopback, private, link-local, reserved and mapped addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.5',
      '192.168.1.10',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      'not an address',
    ])
      expect(isPublicAddress(address), address).toBe(false)
  })

  it('takes public IPv4 and IPv6 addresses', () => {
    for (const address of ['142.250.74.42', '8.8.8.8', '2a00:1450:4001:80b::200a', '::ffff:8.8.8.8'])
      expect(isPublicAddress(address), address).toBe(true)
  })

  it('checks what a host name resolves to; a literal in brackets is an address', async () => {
    expect(await hostIsPublic('localhost')).toBe(false)
    expect(await hostIsPublic('[::1]')).toBe(false)
    expect(await hostIsPublic('127.0.0.1')).toBe(false)
    expect(await hostIsPublic('8.8.8.8')).toBe(true)
    // No network here: a name that does not resolve is "not known now", not "private".
    expect(await hostIsPublic('push.invalid')).toBeUndefined()
  })
})
