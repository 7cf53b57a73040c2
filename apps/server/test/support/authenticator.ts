import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto'

/**
 * A software passkey for route tests: a P-256 key, attestation "none", and assertions signed the way an
 * authenticator signs them (authenticatorData || SHA-256(clientDataJSON)). Each assertion raises the
 * signature counter unless told which counter to claim.
 */

type Cbor = number | Uint8Array | string | Map<Cbor, Cbor>

function head(major: number, value: number): Buffer {
  if (value < 24) return Buffer.from([(major << 5) | value])
  if (value < 256) return Buffer.from([(major << 5) | 24, value])
  const b = Buffer.alloc(3)
  b[0] = (major << 5) | 25
  b.writeUInt16BE(value, 1)
  return b
}

/** Just the CBOR the attestation object and a COSE key need. */
function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value)
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)])
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value])
  const parts = [head(5, value.size)]
  for (const [k, v] of value) parts.push(cbor(k), cbor(v))
  return Buffer.concat(parts)
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url')
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest()

export interface SoftwarePasskey {
  id: string
  counter: number
  /** Whether it claims to have verified its user; may change between ceremonies. */
  verifiesUser: boolean
  register(options: { challenge: string }, origin?: string): Record<string, unknown>
  assert(
    options: { challenge: string },
    opts?: { origin?: string; counter?: number },
  ): Record<string, unknown>
}

export interface SoftwarePasskeyOptions {
  /** The model id it reports at registration (default all zeros, as a browser that withholds it). */
  aaguid?: string
  /** Backed up to a provider's cloud (a multi-device passkey): sets the BE and BS flags. */
  synced?: boolean
  /** Whether it claims to have verified its user (default true). */
  verifiesUser?: boolean
}

export function softwarePasskey(
  rpId = 'localhost',
  defaultOrigin = 'http://localhost:3000',
  model: SoftwarePasskeyOptions = {},
): SoftwarePasskey {
  const aaguid = model.aaguid ? Buffer.from(model.aaguid.replaceAll('-', ''), 'hex') : Buffer.alloc(16)
  // User present, user verified unless told otherwise, backup eligible and backed up when synced.
  const flags = () => 0x01 | (passkey.verifiesUser ? 0x04 : 0) | (model.synced ? 0x08 | 0x10 : 0)
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const jwk = publicKey.export({ format: 'jwk' })
  const credentialId = randomBytes(32)
  const cose = new Map<Cbor, Cbor>([
    [1, 2],
    [3, -7],
    [-1, 1],
    [-2, Buffer.from(jwk.x!, 'base64url')],
    [-3, Buffer.from(jwk.y!, 'base64url')],
  ])
  const clientData = (type: string, challenge: string, origin: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }))
  const authData = (flags: number, counter: number, attested?: Buffer) => {
    const count = Buffer.alloc(4)
    count.writeUInt32BE(counter)
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, attested ?? Buffer.alloc(0)])
  }

  const passkey: SoftwarePasskey = {
    id: b64url(credentialId),
    counter: 0,
    verifiesUser: model.verifiesUser !== false,
    register({ challenge }, origin = defaultOrigin) {
      const idLength = Buffer.alloc(2)
      idLength.writeUInt16BE(credentialId.length)
      const attested = Buffer.concat([aaguid, idLength, credentialId, cbor(cose)])
      // The flags above, with attested credential data.
      const attestationObject = cbor(
        new Map<Cbor, Cbor>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authData(flags() | 0x40, 0, attested)],
        ]),
      )
      return {
        id: passkey.id,
        rawId: passkey.id,
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', challenge, origin)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      }
    },
    assert({ challenge }, opts = {}) {
      const counter = opts.counter ?? ++passkey.counter
      const data = authData(flags(), counter)
      const client = clientData('webauthn.get', challenge, opts.origin ?? defaultOrigin)
      const signature = sign('sha256', Buffer.concat([data, sha256(client)]), privateKey)
      return {
        id: passkey.id,
        rawId: passkey.id,
        type: 'public-key',
        response: {
          clientDataJSON: b64url(client),
          authenticatorData: b64url(data),
          signature: b64url(signature),
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      }
    },
  }
  return passkey
}
