import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { isSafeRequestId, requestIdGenerator, requestIdOf } from './request-id'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** The parts of a raw request the generator reads. */
const raw = (remoteAddress: string, id?: string) =>
  ({
    headers: id === undefined ? {} : { 'x-request-id': id },
    socket: { remoteAddress },
  }) as unknown as IncomingMessage

describe('request ids', () => {
  it('accepts short ids of safe characters only', () => {
    for (const id of [
      'a',
      'nginx-3f2a9c',
      '0f1e2d3c-4b5a-4987-a654-3210fedcba98',
      'x'.repeat(64),
      'a.b:c_d-e',
    ]) {
      expect(isSafeRequestId(id)).toBe(true)
    }
    for (const id of ['', 'x'.repeat(65), ' lead', 'a b', 'a\nb', '-a', '"quoted"', 'é', 'f'.repeat(64)]) {
      expect(isSafeRequestId(id)).toBe(false)
    }
  })

  it('keeps a trusted peer’s id as TRUST_PROXY decides, and makes a fresh one otherwise', () => {
    expect(requestIdGenerator(true)(raw('192.0.2.7', 'proxy-1'))).toBe('proxy-1')
    expect(requestIdGenerator('10.0.0.0/8, 127.0.0.1')(raw('10.1.2.3', 'proxy-1'))).toBe('proxy-1')
    expect(requestIdGenerator('10.0.0.0/8')(raw('192.0.2.7', 'proxy-1'))).toMatch(UUID)
    // Fastify trusts no peer on a hop count alone (it cannot tell the proxy from a client); nor do we.
    expect(requestIdGenerator(1)(raw('10.1.2.3', 'proxy-1'))).toMatch(UUID)
    expect(requestIdGenerator(false)(raw('127.0.0.1', 'proxy-1'))).toMatch(UUID)
    expect(requestIdGenerator(true)(raw('127.0.0.1', 'bad id'))).toMatch(UUID)
    const request = raw('127.0.0.1')
    const id = requestIdGenerator(true)(request)
    expect(id).toMatch(UUID)
    expect(requestIdOf(request)).toBe(id)
  })
})
