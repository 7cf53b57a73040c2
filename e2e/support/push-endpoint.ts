// A copy of apps/server/test/support/push-endpoint.ts (the e2e project cannot import the server's test files).
import { createECDH, createPublicKey, createDecipheriv, hkdfSync, randomBytes, verify } from 'node:crypto'
import { type IncomingHttpHeaders, type Server, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A push service of our own for the tests (issue 27, docs/decisions/0053): a local HTTP server that
 * records every request and answers as told (a status, or nothing at all to make the sender time out),
 * and a device's keys that decrypt what it received (RFC 8291) and check the VAPID JWT (RFC 8292).
 */

export interface ReceivedPush {
  path: string
  headers: IncomingHttpHeaders
  body: Buffer
}

/** What the endpoint does with the next request: answer this status, or 'hang' (never answer). */
export type Answer = number | 'hang'

export interface PushEndpoint {
  /** `http://127.0.0.1:<port>` */
  origin: string
  /** A fresh endpoint URL (a device's) on this server. */
  endpointUrl(): string
  received: ReceivedPush[]
  /** Answers for the next requests, in order; after them every request gets 201. */
  answers: Answer[]
  close(): Promise<void>
}

export async function startPushEndpoint(): Promise<PushEndpoint> {
  const received: ReceivedPush[] = []
  const answers: Answer[] = []
  const hanging = new Set<ServerResponse>()
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) })
      const answer = answers.shift() ?? 201
      if (answer === 'hang') {
        hanging.add(res)
        return
      }
      res.statusCode = answer
      res.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const origin = `http://127.0.0.1:${port}`
  return {
    origin,
    endpointUrl: () => `${origin}/push/${randomBytes(12).toString('base64url')}`,
    received,
    answers,
    async close() {
      for (const res of hanging) res.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

const hkdf = (salt: Buffer, ikm: Buffer, info: Buffer, length: number) =>
  Buffer.from(hkdfSync('sha256', ikm, salt, info, length))

/** A browser's side of a push subscription: its P-256 key pair and 16-byte auth secret. */
export function deviceKeys() {
  const ecdh = createECDH('prime256v1')
  const uaPublic = ecdh.generateKeys()
  const authSecret = randomBytes(16)
  return {
    p256dh: uaPublic.toString('base64url'),
    auth: authSecret.toString('base64url'),
    /**
     * RFC 8291 with RFC 8188's aes128gcm content coding: the header (salt, record size, the server's
     * public key as key id), the keys from ECDH and HKDF, one record decrypted, its padding removed.
     */
    decrypt(body: Buffer): string {
      const salt = body.subarray(0, 16)
      const recordSize = body.readUInt32BE(16)
      const idLength = body.readUInt8(20)
      const asPublic = body.subarray(21, 21 + idLength)
      const record = body.subarray(21 + idLength)
      if (idLength !== 65) throw new Error(`key id of ${idLength} bytes, not a P-256 public key`)
      if (record.length > recordSize) throw new Error('more than one record')
      const ecdhSecret = ecdh.computeSecret(asPublic)
      const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic])
      const ikm = hkdf(authSecret, ecdhSecret, keyInfo, 32)
      const cek = hkdf(salt, ikm, Buffer.from('Content-Encoding: aes128gcm\0'), 16)
      const nonce = hkdf(salt, ikm, Buffer.from('Content-Encoding: nonce\0'), 12)
      const decipher = createDecipheriv('aes-128-gcm', cek, nonce)
      decipher.setAuthTag(record.subarray(record.length - 16))
      const padded = Buffer.concat([
        decipher.update(record.subarray(0, record.length - 16)),
        decipher.final(),
      ])
      // The last record ends with the delimiter 0x02, then zero or more zero bytes.
      let end = padded.length - 1
      while (end >= 0 && padded[end] === 0) end--
      if (padded[end] !== 2) throw new Error('no last-record delimiter')
      return padded.subarray(0, end).toString('utf8')
    },
  }
}

/**
 * RFC 8292: `Authorization: vapid t=<JWT>, k=<public key>`; the JWT is ES256 over the server's key, its
 * `aud` the endpoint's origin, `exp` within 24 hours, `sub` a contact. Returns the claims and the key.
 */
export function checkVapid(authorization: string | undefined, endpoint: string, now = Date.now()) {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '')
  if (!match) throw new Error(`not a vapid Authorization header: ${authorization}`)
  const [, jwt = '', k = ''] = match
  const [header = '', payload = '', signature = ''] = jwt.split('.')
  const point = Buffer.from(k, 'base64url')
  if (point.length !== 65 || point[0] !== 4) throw new Error('k is not an uncompressed P-256 key')
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  })
  const valid = verify(
    'sha256',
    Buffer.from(`${header}.${payload}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  )
  if (!valid) throw new Error('the VAPID JWT signature does not verify')
  const head = JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg: string; typ?: string }
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as {
    aud: string
    exp: number
    sub: string
  }
  if (head.alg !== 'ES256') throw new Error(`alg ${head.alg}`)
  if (claims.aud !== new URL(endpoint).origin) throw new Error(`aud ${claims.aud}`)
  if (claims.exp * 1000 <= now || claims.exp * 1000 > now + 24 * 3600_000 + 60_000)
    throw new Error(`exp ${claims.exp}`)
  return { claims, publicKey: k }
}
