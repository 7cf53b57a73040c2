import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import proxyAddr from '@fastify/proxy-addr'
import { scrubLogText } from './logging'

/**
 * Request ids (docs/decisions/0042): every answer carries `x-request-id`, and every log line written
 * for the request carries the same id as `reqId`, so a person's report ("it said something went wrong,
 * id 5f0c…") leads to the log.
 */
export const REQUEST_ID_HEADER = 'x-request-id'

/**
 * What an id from a proxy may look like: letters, digits and `._:-`, at most 64 characters, starting
 * with a letter or digit (UUIDs, nginx's `$request_id`, Envoy's and Traefik's ids). Anything else is
 * replaced by our own, so a client can never put text of its choosing into the log.
 */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/

/** Where Fastify keeps nothing for us: the id on the raw request, for answers written past Fastify (a 408). */
const RAW_ID = Symbol('circles.requestId')

export function isSafeRequestId(id: string): boolean {
  // The log masks token-shaped text (64 hex digits): an id the log would print differently is no use.
  return SAFE_ID.test(id) && scrubLogText(id) === id
}

/**
 * Whether the connection's peer is a proxy TRUST_PROXY names, decided as Fastify decides it for
 * X-Forwarded-For (5.12): `true` trusts every peer, a list of addresses or ranges those peers, a hop
 * count none (Fastify fails closed there: a count cannot tell the proxy from a client).
 */
function trustsPeer(trustProxy: boolean | number | string): (address: string) => boolean {
  if (trustProxy === true) return () => true
  if (trustProxy === false || typeof trustProxy === 'number') return () => false
  const trust = proxyAddr.compile(trustProxy.split(',').map((value) => value.trim()))
  return (address) => trust(address, 0)
}

/**
 * Fastify's `genReqId`: a fresh UUID, or the `x-request-id` a trusted proxy sent when it is safe
 * (above). The id is also kept on the raw request (`requestIdOf`).
 */
export function requestIdGenerator(trustProxy: boolean | number | string) {
  const trusted = trustsPeer(trustProxy)
  return (request: IncomingMessage): string => {
    const given = request.headers[REQUEST_ID_HEADER]
    const address = request.socket?.remoteAddress
    const id =
      typeof given === 'string' && address !== undefined && isSafeRequestId(given) && trusted(address)
        ? given
        : randomUUID()
    ;(request as IncomingMessage & { [RAW_ID]?: string })[RAW_ID] = id
    return id
  }
}

/** The id Fastify gave this raw request, if it got that far. */
export function requestIdOf(request: IncomingMessage): string | undefined {
  return (request as IncomingMessage & { [RAW_ID]?: string })[RAW_ID]
}
