import { z } from 'zod/mini'
import { named } from './common'
import { MESSAGES } from '../messages'

/**
 * Deleting one's own account (issue 24, GDPR Art. 17; docs/decisions/0035). The preview says what the
 * deletion will do; the deletion itself needs the password again, or a fresh passkey assertion.
 */

const ZRef = z.object({ id: z.uuid(), name: z.string() })

/** What becomes of one of the person's circles. */
export const ZDeletionCircle = z.object({
  id: z.uuid(),
  name: z.string(),
  /**
   * CLOSES: the person is its only member, it goes with its items and ledger. ADMIN_PASSES: the person
   * is its admin; the longest-standing other member becomes admin (`successor`). LEAVES: they leave it.
   */
  outcome: z.enum(['CLOSES', 'ADMIN_PASSES', 'LEAVES']),
  successor: z.nullable(ZRef),
})
export type TDeletionCircle = z.infer<typeof ZDeletionCircle>

/** GET /api/users/me/deletion: what deleting the account would do now. */
export const ZDeletionPreview = named(
  z.object({
    circles: z.array(ZDeletionCircle),
    /** Items the person holds completely: deleted with their pictures. */
    itemsDeleted: z.array(z.extend(ZRef, { circleId: z.uuid() })),
    /** Items the person holds partially: they go to the circle's admin (after the handover of rights). */
    itemsToAdmin: z.array(z.extend(ZRef, { circleId: z.uuid(), admin: ZRef })),
    /** Handover requests waiting for an answer that the person sent or was asked: withdrawn. */
    pendingHandovers: z.number().check(z.int(), z.nonnegative()),
    /** Whether the account has a passkey it may confirm the deletion with. */
    hasPasskeys: z.boolean(),
  }),
  'DeletionPreview',
)
export type TDeletionPreview = z.infer<typeof ZDeletionPreview>
export const ZDeletionPreviewResponse = z.object({ preview: ZDeletionPreview })

const BASE64URL = /^[A-Za-z0-9_-]+$/
const failed = MESSAGES.deleteAccountPasskeyFailed

/** A passkey assertion as the browser's `toJSON()` gives it; @simplewebauthn/server checks the rest. */
const ZAssertion = z.looseObject({
  id: z.string().check(z.minLength(1), z.maxLength(1024), z.regex(BASE64URL, failed)),
  rawId: z.string().check(z.minLength(1), z.maxLength(1024), z.regex(BASE64URL, failed)),
  type: z.literal('public-key'),
  response: z.looseObject({
    clientDataJSON: z.string().check(z.minLength(1), z.maxLength(16_384), z.regex(BASE64URL, failed)),
  }),
})

/** POST /api/users/me/delete: the password, or the assertion of /api/webauthn/reauth/options. */
export const ZDeleteAccountRequest = z
  .object({
    password: z.optional(z.string().check(z.maxLength(256, MESSAGES.deleteAccountWrongPassword))),
    credential: z.optional(ZAssertion),
  })
  .check(
    z.refine((v) => (v.password !== undefined && v.password.length > 0) || v.credential !== undefined, {
      message: MESSAGES.deleteAccountConfirmRequired,
    }),
  )
export type TDeleteAccountRequest = z.infer<typeof ZDeleteAccountRequest>

/** POST /api/webauthn/reauth/options: a challenge for the signed-in person's own passkeys. */
export const ZReauthOptionsResponse = z.object({
  options: z.looseObject({ challenge: z.string().check(z.minLength(1)) }),
})
