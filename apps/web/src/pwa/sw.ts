/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core'
import { CacheableResponsePlugin } from 'workbox-cacheable-response'
import { ExpirationPlugin } from 'workbox-expiration'
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching'
import { registerRoute } from 'workbox-routing'
import { CacheFirst, NetworkFirst } from 'workbox-strategies'

/**
 * The service worker (spec 000 §1; issue 27 turned vite.config.ts from generateSW to injectManifest so
 * it can take push messages, docs/decisions/0053). What it caches is what the generated one did:
 * the precache of the built assets and the app shell, pages network first with the last copy or the app
 * shell offline, hashed /assets/ cache first; /api and /socket.io never through a cache.
 */
declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: (string | { url: string; revision: string | null })[]
}

/** vite.config.ts: index.html as the server sends it, precached under this name. */
const APP_SHELL = 'app-shell'

self.skipWaiting()
clientsClaim()
cleanupOutdatedCaches()
precacheAndRoute(self.__WB_MANIFEST)

/** Fetched network first, with the page's last copy or the app shell when offline. */
const pages = new NetworkFirst({
  cacheName: 'circles-pages',
  networkTimeoutSeconds: 4,
  plugins: [
    new ExpirationPlugin({ maxEntries: 24 }),
    new CacheableResponsePlugin({ statuses: [200] }),
    // A screen rendered with a session's data (docs/decisions/0068) is sent `no-store`: kept nowhere.
    {
      cacheWillUpdate: async ({ response }) =>
        /\bno-store\b/.test(response.headers.get('cache-control') ?? '') ? null : response,
    },
    // workbox's precacheFallback: a failed navigation answers the precached app shell.
    { handlerDidError: async () => (await matchPrecache(APP_SHELL)) ?? undefined },
  ],
})
registerRoute(
  ({ request, url }) =>
    request.mode === 'navigate' &&
    !url.pathname.startsWith('/api/') &&
    url.pathname !== '/api' &&
    !url.pathname.startsWith('/socket.io'),
  pages,
)

// Hashed files outside the precache (the landing page's own script, built after the precache step).
registerRoute(
  ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/assets/'),
  new CacheFirst({
    cacheName: 'circles-assets',
    plugins: [
      new ExpirationPlugin({ maxEntries: 64, maxAgeSeconds: 60 * 60 * 24 * 30 }),
      new CacheableResponsePlugin({ statuses: [200] }),
    ],
  }),
)

/** What the server's push worker sends (apps/server/src/lib/push/queue.ts `PushNotice`). */
interface PushNotice {
  title: string
  body: string
  tag: string
  url: string
}

function noticeOf(data: PushMessageData | null): PushNotice | null {
  try {
    const value = data?.json() as Partial<PushNotice> | undefined
    if (typeof value?.title !== 'string') return null
    return {
      title: value.title,
      body: typeof value.body === 'string' ? value.body : '',
      tag: typeof value.tag === 'string' ? value.tag : '',
      url: typeof value.url === 'string' ? value.url : '/dashboard',
    }
  } catch {
    return null
  }
}

/** A same-origin path only: a notice never opens another site. */
function samePath(url: unknown): string {
  if (typeof url !== 'string') return '/dashboard'
  const target = new URL(url, self.location.origin)
  return target.origin === self.location.origin ? target.pathname + target.search + target.hash : '/dashboard'
}

self.addEventListener('push', (event) => {
  const notice = noticeOf(event.data)
  if (!notice) return
  event.waitUntil(
    self.registration.showNotification(notice.title, {
      body: notice.body,
      tag: notice.tag || undefined,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url: samePath(notice.url) },
    }),
  )
})

/** Focus an open Circles window and take it to the notice's page, else open one there. */
self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const path = samePath((event.notification.data as { url?: unknown } | null)?.url)
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true })
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin)
      if (open) {
        // focus() needs the click's user activation; navigate() works on a window this worker controls.
        await open.focus().catch(() => undefined)
        await open.navigate(path).catch(() => null)
        return
      }
      await self.clients.openWindow(path)
    })(),
  )
})
