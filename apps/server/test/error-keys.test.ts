import { MESSAGES, messageKeyOf } from '@circles/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openRaw } from './support/raw-http'
import { listen, refusal } from './support/sockets'
import { createTestApp, type TestApp } from './support/test-app'

/**
 * Issue 23: every error answer names its message by key (`key`, the name in MESSAGES), so the web app
 * translates by the key and a reworded message keeps its translation. The routes' own errors are walked
 * by the fuzz test (test/fuzz.test.ts checks the key of every 4xx); here the answers made outside the
 * routes: Fastify's and zod's, the router's 404, framework errors, Node's refusals and the socket's.
 */
let t: TestApp
let url: string
beforeAll(async () => {
  t = await createTestApp()
  url = await listen(t)
})
afterAll(() => t.close())

const json = (payload: string, contentType = 'application/json') => ({
  method: 'POST' as const,
  url: '/api/users/login',
  headers: { 'content-type': contentType },
  payload,
})

/** The raw answer to one request written as is, split into status line and JSON body. */
async function rawAnswer(request: string) {
  const client = await openRaw(url)
  client.socket.write(request)
  const { answer } = await client.closed
  return {
    status: answer.slice(0, answer.indexOf('\r\n')),
    body: JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as unknown,
  }
}

describe('error keys', () => {
  it('names the message of every error the framework answers', async () => {
    const cases = [
      [{ method: 'GET' as const, url: '/api/nowhere' }, 404, 'NOT_FOUND', 'notFound'],
      [{ method: 'GET' as const, url: '/api/circles/not-a-uuid' }, 401, 'UNAUTHORIZED', 'unauthorized'],
      [{ method: 'GET' as const, url: '/api/items/%ED%A0%80' }, 400, 'BAD_REQUEST', 'invalidUrl'],
      [json('{'), 400, 'INVALID_JSON', 'invalidJson'],
      [json(''), 400, 'INVALID_JSON', 'invalidJson'],
      [json('{}', 'application/xml'), 415, 'UNSUPPORTED_MEDIA_TYPE', 'unsupportedMediaType'],
      [
        json(JSON.stringify({ email: 'x'.repeat(2 * 1024 * 1024) })),
        413,
        'PAYLOAD_TOO_LARGE',
        'payloadTooLarge',
      ],
      [json(JSON.stringify({ email: 'nope' })), 400, 'VALIDATION_ERROR', 'required'],
    ] as const
    for (const [request, status, code, key] of cases) {
      const res = await t.app.inject(request)
      expect(res.statusCode, request.url).toBe(status)
      expect(res.json(), request.url).toEqual({ message: MESSAGES[key], code, key })
    }
  })

  it("keys zod's own words for a value outside the schema as invalidInput, the message as it was", async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/register',
      payload: { name: 'A'.repeat(101), email: 'ada@example.com', password: 'secret123' },
    })
    expect(res.statusCode).toBe(400)
    const body = res.json<{ message: string; code: string; key: string }>()
    expect(body).toMatchObject({ code: 'VALIDATION_ERROR', key: 'invalidInput' })
    expect(body.message).not.toBe('')
    expect(messageKeyOf(body.message)).toBeUndefined()
  })

  it("keys Node's refusals of requests it cannot parse", async () => {
    expect(await rawAnswer('BROKEN\r\n\r\n')).toEqual({
      status: 'HTTP/1.1 400 Bad Request',
      body: { message: MESSAGES.malformedRequest, code: 'BAD_REQUEST', key: 'malformedRequest' },
    })
    expect(
      await rawAnswer(`GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
    ).toEqual({
      status: 'HTTP/1.1 431 Request Header Fields Too Large',
      body: { message: MESSAGES.requestHeadersTooLarge, code: 'BAD_REQUEST', key: 'requestHeadersTooLarge' },
    })
  })

  it('keys a refused socket as an API answer would be', async () => {
    expect(await refusal(url, 'not-a-token')).toEqual({
      message: MESSAGES.unauthorized,
      data: { code: 'UNAUTHORIZED', key: 'unauthorized' },
    })
    expect(await refusal(url, undefined)).toEqual({
      message: MESSAGES.unauthorized,
      data: { code: 'UNAUTHORIZED', key: 'unauthorized' },
    })
  })
})
