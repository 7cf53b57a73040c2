import { lookup } from 'node:dns/promises'
import { BlockList, isIP } from 'node:net'

/**
 * Where the server may post a push (docs/decisions/0053, "Endpoints"): a push service is on the public
 * internet. An endpoint is a URL a signed-in person hands us, so without this check the server would
 * post to any host it can reach for them (its own loopback, the private network, cloud metadata at
 * 169.254.169.254). Checked at each send against what the name resolves to then, not only at
 * registration: a name may point elsewhere later.
 */
const NOT_PUBLIC = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4')
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48], // local-use NAT64
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6')

/** Whether an IP address is one of the internet's (not loopback, private, link-local, reserved). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 0) return false
  // BlockList matches an IPv4-mapped IPv6 address (::ffff:10.0.0.1, ::ffff:a00:1) against the IPv4 rules.
  return !NOT_PUBLIC.check(address, family === 6 ? 'ipv6' : 'ipv4')
}

/**
 * Whether every address the host name resolves to is public. `undefined` when it does not resolve now
 * (a passing DNS failure: try again later), `false` when any address is not public.
 */
export async function hostIsPublic(hostname: string): Promise<boolean | undefined> {
  const host = hostname.replace(/^\[(.*)\]$/, '$1')
  if (isIP(host)) return isPublicAddress(host)
  try {
    const addresses = await lookup(host, { all: true, verbatim: true })
    return addresses.length > 0 && addresses.every((entry) => isPublicAddress(entry.address))
  } catch {
    return undefined
  }
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

/** A loopback host name as URL.hostname gives it (development, and the tests' own push service). */
export const isLoopbackHost = (hostname: string) => LOOPBACK.has(hostname)
