import { z } from 'zod/mini'
import { MESSAGES } from '../messages'
import { named, zEmail, zText } from './common'

/**
 * Passkeys (spec 000 §5, §7; spec 001 §3, §7). The options are WebAuthn's JSON forms
 * (PublicKeyCredentialCreationOptionsJSON / RequestOptionsJSON), passed to the browser as they are.
 */
export const ZRegistrationOptions = z.looseObject({
  challenge: z.string().check(z.minLength(1)),
  pubKeyCredParams: z.array(z.object({ type: z.literal('public-key'), alg: z.number() })),
})

/** WebAuthn's JSON forms carry binary values in base64url. */
const BASE64URL = /^[A-Za-z0-9_-]+$/

/**
 * A credential as the browser's `toJSON()` gives it; @simplewebauthn/server checks the rest. An id that
 * is not base64url gets the flow's own failure message.
 */
const credentialJson = (message: string) =>
  z.looseObject({
    id: z.string().check(z.minLength(1), z.maxLength(1024), z.regex(BASE64URL, message)),
    rawId: z.string().check(z.minLength(1), z.maxLength(1024), z.regex(BASE64URL, message)),
    type: z.literal('public-key'),
    response: z.looseObject({
      clientDataJSON: z.string().check(z.minLength(1), z.maxLength(16_384), z.regex(BASE64URL, message)),
    }),
  })

export const ZRegistrationVerifyRequest = z.object({
  credential: credentialJson(MESSAGES.passkeyRegistrationFailed),
})

export const ZPasskeyCredential = named(
  z.object({
    id: z.string(),
    credentialDeviceType: z.enum(['singleDevice', 'multiDevice']),
    credentialBackedUp: z.boolean(),
    createdAt: z.iso.datetime(),
    /** Issue 24 (ADR 0036): the owner's name for it, and when it last signed in (null: never). */
    name: z.string(),
    lastUsedAt: z.nullable(z.iso.datetime()),
  }),
  'PasskeyCredential',
)
export type TPasskeyCredential = z.infer<typeof ZPasskeyCredential>

export const ZRegistrationVerifyResponse = z.object({
  verified: z.literal(true),
  credential: ZPasskeyCredential,
  message: z.string(),
})
export const ZCredentialListResponse = z.object({ credentials: z.array(ZPasskeyCredential) })
/** A credential id that cannot name a passkey (not base64url) is answered like an unknown one: 404. */
export const ZCredentialIdParams = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(1024), z.regex(BASE64URL, { error: MESSAGES.notFound })),
})

/** Issue 24: PATCH /webauthn/credentials/:id renames one of my passkeys. */
export const PASSKEY_NAME_MAX = 60
export const ZRenamePasskeyRequest = z.object({
  name: z.pipe(
    z.string({ error: MESSAGES.passkeyNameRequired }),
    zText().check(
      z.minLength(1, MESSAGES.passkeyNameRequired),
      z.maxLength(PASSKEY_NAME_MAX, MESSAGES.passkeyNameTooLong),
    ),
  ),
})
export type TRenamePasskeyRequest = z.infer<typeof ZRenamePasskeyRequest>
export const ZRenamePasskeyResponse = z.object({ credential: ZPasskeyCredential, message: z.string() })

/** Optional: with an email, the options name that account's passkeys; without, any passkey may answer. */
export const ZLoginOptionsRequest = z.object({
  // Classic zod's z.preprocess(fn, schema) is this pipe (zod/mini has no preprocess); the outer optional
  // only says in the type, as preprocess did, that the key may be left out (the pipe takes undefined).
  email: z.optional(
    z.pipe(
      z.transform((v: unknown) => (v === '' ? undefined : v)),
      z.optional(zEmail()),
    ),
  ),
})
export const ZLoginOptionsResponse = z.object({
  options: z.looseObject({ challenge: z.string().check(z.minLength(1)) }),
  userId: z.optional(z.uuid()),
})
export const ZLoginVerifyRequest = z.object({
  credential: credentialJson(MESSAGES.passkeyAuthenticationFailed),
  userId: z.optional(z.uuid({ error: MESSAGES.passkeyAuthenticationFailed })),
})
