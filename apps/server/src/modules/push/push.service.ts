import { createECDH } from 'node:crypto'
import {
  MESSAGES,
  type TPushKeyResponse,
  type TPushSubscribeRequest,
  type TPushSubscriptionResponse,
  type TUser,
} from '@circles/shared'
import type { AppContext } from '../../context'
import type { Executor } from '../../db/client'
import { AppError } from '../../lib/errors'
import { isLoopbackHost } from '../../lib/push/public-address'
import type { VapidKeys } from '../../lib/push/vapid'
import * as repo from './push.repository'

/**
 * Which endpoints a device may register (docs/decisions/0053): https, as every browser's push service
 * gives. Plain http only to a loopback host, and only on a server that itself runs on one (PUBLIC_URL
 * http://localhost…: development and the tests' push endpoint); a public server never posts to its own
 * loopback for a user.
 */
export function endpointAllowed(endpoint: string, publicUrl: string): boolean {
  const url = new URL(endpoint)
  if (url.username || url.password) return false
  if (url.protocol === 'https:')
    return !isLoopbackHost(url.hostname) || isLoopbackHost(new URL(publicUrl).hostname)
  return (
    url.protocol === 'http:' && isLoopbackHost(url.hostname) && isLoopbackHost(new URL(publicUrl).hostname)
  )
}

/** A P-256 point the encryption can use (a key not on the curve would fail every send). */
function usableDeviceKey(p256dh: string): boolean {
  try {
    const point = Buffer.from(p256dh, 'base64url')
    const probe = createECDH('prime256v1')
    probe.generateKeys()
    probe.computeSecret(point)
    return point.length === 65 && point[0] === 4
  } catch {
    return false
  }
}

/** Web Push (issue 27): the server's key, this device on, this device off. */
export function createPushService(ctx: AppContext, vapid: VapidKeys) {
  const refused = () => new AppError('VALIDATION_ERROR', MESSAGES.pushEndpointRefused)

  function publicKey(): TPushKeyResponse {
    return { publicKey: vapid.publicKey }
  }

  async function subscribe(actor: TUser, input: TPushSubscribeRequest): Promise<TPushSubscriptionResponse> {
    if (!endpointAllowed(input.endpoint, ctx.config.publicUrl)) throw refused()
    if (!usableDeviceKey(input.keys.p256dh) || Buffer.from(input.keys.auth, 'base64url').length !== 16) {
      throw new AppError('VALIDATION_ERROR', MESSAGES.invalidInput)
    }
    await repo.upsertSubscription(ctx.db, {
      userId: actor.id,
      endpoint: input.endpoint,
      p256dh: input.keys.p256dh.replace(/=+$/, ''),
      auth: input.keys.auth.replace(/=+$/, ''),
    })
    ctx.log.info({ userId: actor.id }, 'push turned on for a device')
    return { subscribed: true }
  }

  /** Turning notices off on this device, or signing out on it: only one's own device. */
  async function unsubscribe(actor: TUser, endpoint: string): Promise<TPushSubscriptionResponse> {
    if (await repo.deleteSubscription(ctx.db, actor.id, endpoint)) {
      ctx.log.info({ userId: actor.id }, 'push turned off for a device')
    }
    return { subscribed: false }
  }

  /** Whether this device (its endpoint) is on for the person: the profile's state after a reload. */
  async function status(actor: TUser, endpoint: string): Promise<TPushSubscriptionResponse> {
    return { subscribed: await repo.hasSubscription(ctx.db, actor.id, endpoint) }
  }

  /** For the account deletion's transaction. */
  const removeAllOf = (tx: Executor, userId: string) => repo.deleteSubscriptionsOf(tx, userId)

  return { publicKey, subscribe, unsubscribe, status, removeAllOf }
}

export type PushService = ReturnType<typeof createPushService>
