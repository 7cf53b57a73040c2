/**
 * The installable app's code in the page (issue 27 moved it here from lib/): the install prompt and
 * banner, and Web Push on this device. The service worker itself is sw.ts, built by vite-plugin-pwa
 * (injectManifest, vite.config.ts) and registered by register.ts; offline/ is the offline reading.
 */
export * from './pwa-install'
export * from './register'
export * from './install-banner'
export * from './push'
