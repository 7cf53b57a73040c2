import { z } from 'zod/mini'
import { named } from './common'

/**
 * Web Push (issue 27, docs/decisions/0053). GET /api/push/key: the server's VAPID public key, the
 * `applicationServerKey` of `pushManager.subscribe`.
 */
export const ZPushKeyResponse = z.object({ publicKey: z.string() })
export type TPushKeyResponse = z.infer<typeof ZPushKeyResponse>

/**
 * POST /api/push/subscriptions: this device's `PushSubscription.toJSON()` (endpoint and keys). The
 * endpoint is the push service's https URL (plain http only to a loopback host, and only on a server
 * whose own PUBLIC_URL is a loopback one: development and tests).
 */
export const ZPushSubscribeRequest = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).check(z.maxLength(2048)),
  /** Browsers also send it; the server ignores it. */
  expirationTime: z.optional(z.nullable(z.number())),
  keys: z.object({
    /** The device's P-256 public key, uncompressed (65 bytes), base64url. */
    p256dh: z.string().check(z.regex(/^[A-Za-z0-9_-]{87}=?$/)),
    /** The device's 16-byte authentication secret, base64url. */
    auth: z.string().check(z.regex(/^[A-Za-z0-9_-]{22}(==)?$/)),
  }),
})
export type TPushSubscribeRequest = z.infer<typeof ZPushSubscribeRequest>

/** DELETE /api/push/subscriptions: the endpoint of the device that turns notices off (or signs out). */
export const ZPushUnsubscribeRequest = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).check(z.maxLength(2048)),
})
export type TPushUnsubscribeRequest = z.infer<typeof ZPushUnsubscribeRequest>

export const ZPushSubscriptionResponse = z.object({ subscribed: z.boolean() })
export type TPushSubscriptionResponse = z.infer<typeof ZPushSubscriptionResponse>

/** Which push notices the person wants on the devices that turned them on; every kind is on until switched off. */
export const ZPushPreferences = named(
  z.object({
    handoverRequests: z.boolean(),
    handoverAnswers: z.boolean(),
    invitations: z.boolean(),
    loanReminders: z.boolean(),
  }),
  'PushPreferences',
)
export type TPushPreferences = z.infer<typeof ZPushPreferences>
export type PushKind = keyof TPushPreferences
