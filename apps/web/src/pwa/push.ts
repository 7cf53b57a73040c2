import { ZPushKeyResponse, ZPushSubscriptionResponse } from '@circles/shared'
import { api } from '@/lib/api-client'
import { within } from '@/lib/within'
import { browserEnvironment, isIosSafari } from './pwa-install'

/**
 * Web Push on this device (issue 27, docs/decisions/0053): what the browser can do, turning notices on
 * (permission, `pushManager.subscribe` with the server's VAPID key, the subscription to the server) and
 * off, and forgetting the device when its person signs out.
 */

export type PushSupport =
  /** No service worker, PushManager or Notification here. */
  | 'unsupported'
  /** iPhone or iPad in a Safari tab: Web Push works in the installed app only. */
  | 'needs-install'
  | 'denied'
  | 'available'

export function pushSupport(): PushSupport {
  const env = browserEnvironment()
  if (isIosSafari(env.userAgent, env.platform, env.maxTouchPoints) && !env.standalone) return 'needs-install'
  if (
    typeof window === 'undefined' ||
    !('serviceWorker' in navigator) ||
    !('PushManager' in window) ||
    !('Notification' in window)
  ) {
    return 'unsupported'
  }
  return Notification.permission === 'denied' ? 'denied' : 'available'
}

/** The base64url VAPID key as the bytes `applicationServerKey` takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/')
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4))
  const bytes = new Uint8Array(new ArrayBuffer(raw.length))
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i)
  return bytes
}

async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (!('serviceWorker' in navigator)) return null
  // The worker registers once the first screen has settled (register.ts); wait for it, but not forever.
  return (await within(navigator.serviceWorker.ready, 10_000)) ?? null
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const reg = await registration()
  return reg ? reg.pushManager.getSubscription() : null
}

/** Whether this device has notices on for the signed-in person (the server knows its endpoint for them). */
export async function devicePushOn(): Promise<boolean> {
  const subscription = await currentSubscription()
  if (!subscription) return false
  const { subscribed } = await api.post(
    '/push/subscriptions/status',
    { endpoint: subscription.endpoint },
    ZPushSubscriptionResponse,
  )
  return subscribed
}

/** Asks for permission, subscribes with the server's key and registers the device: 'on' or 'denied'. */
export async function turnOnPush(): Promise<'on' | 'denied'> {
  const permission = await Notification.requestPermission()
  if (permission !== 'granted') return 'denied'
  const reg = await registration()
  if (!reg) throw new Error('no service worker')
  const { publicKey } = await api.get('/push/key', ZPushKeyResponse)
  const subscription =
    (await reg.pushManager.getSubscription()) ??
    (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }))
  await api.post('/push/subscriptions', subscription.toJSON(), ZPushSubscriptionResponse)
  return 'on'
}

/** This device off: the server forgets it, the browser drops the subscription. */
export async function turnOffPush(): Promise<void> {
  const subscription = await currentSubscription()
  if (!subscription) return
  await api.deleteWith('/push/subscriptions', { endpoint: subscription.endpoint }, ZPushSubscriptionResponse)
  await subscription.unsubscribe()
}

/**
 * Signing out on this device ends its notices (the next person on it must not get the last one's).
 * Bounded: a slow or failed call never holds the sign-out up; the server also drops the device on its
 * next 404/410, and a later subscriber of the same endpoint takes it over.
 */
export async function forgetDeviceOnSignOut(): Promise<void> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return
  await within(
    turnOffPush().catch(() => undefined),
    3000,
  )
}
