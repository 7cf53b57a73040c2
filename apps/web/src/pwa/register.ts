/**
 * Registers the service worker (sw.ts). Not on the page's load event, as vite-plugin-pwa's
 * registerSW.js did: the pages that arrive as HTML (the public pages, the signed-in screens' frames,
 * docs/decisions/0065) are loaded before their app is, and the worker's install downloads every
 * precached file, about 140, which then took a phone's link from the screen's own scripts on a first
 * visit. The app registers once its first screen has settled (app/shell-services.ts); the static pages,
 * which load no app, on their load (static-page-entry.ts).
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return
  // Refused (a private window, an unsupported browser): the app works without it, online.
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined)
}
