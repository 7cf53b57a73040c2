import { fileURLToPath } from 'node:url'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'
import { appChunk } from './build/chunk-groups.ts'
import { PREACT_ALIASES, PREACT_JSX } from './build/preact.mjs'

// The build's id: a device's stored query cache from another build is dropped (src/pwa/offline, ADR 0054).
process.env.VITE_BUILD_ID ??= new Date().toISOString()
const apiTarget = `http://localhost:${process.env.API_PORT ?? 3000}`
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
].join('; ')

/** Light-mode page colour (app/styles.css --c-bg): the splash screen and the installed app's title bar. */
const BACKGROUND = '#f7f9fb'

/**
 * The offline answer for pages not visited before. The server sends index.html, with the runtime
 * config in it, for any path that is not a file or a prerendered page; it does not serve /index.html.
 */
const APP_SHELL = 'app-shell'

/**
 * The installable app (spec 000 §1): manifest, and a service worker that precaches the built assets.
 * Pages are fetched network first, because the server puts the runtime config and the visitor's
 * language into every HTML answer (a cached index.html would have neither); offline, the last copy of a
 * page or else the precached app shell answers. /api and /socket.io never go through a cache.
 */
const pwa = VitePWA({
  registerType: 'autoUpdate',
  // Registered by the app once its first screen has settled, not on load (src/pwa/register.ts).
  injectRegister: false,
  includeAssets: ['icons/apple-touch-icon.png'],
  manifest: {
    id: '/',
    name: 'Circles',
    short_name: 'Circles',
    description: 'Hand things over within trusted groups, with every handover confirmed and recorded.',
    lang: 'en',
    dir: 'ltr',
    start_url: '/dashboard',
    scope: '/',
    display: 'standalone',
    orientation: 'any',
    background_color: BACKGROUND,
    theme_color: BACKGROUND,
    categories: ['productivity', 'lifestyle', 'utilities'],
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
      { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  // Issue 27 (docs/decisions/0053): our own worker, src/pwa/sw.ts, so it can show push notices; it keeps
  // the caching the generated one had (precache, NetworkFirst pages with the app shell offline, CacheFirst
  // /assets/, cleanup, skipWaiting + clientsClaim). The precache list is injected into it here.
  strategies: 'injectManifest',
  srcDir: 'src/pwa',
  filename: 'sw.ts',
  injectManifest: {
    // Only latin subsets of the font: English and German need no others. No HTML: see APP_SHELL.
    globPatterns: ['**/*.{js,css,svg,woff2}'],
    // index.html as the server sends it (with the runtime config), revisioned by the built file's hash.
    templatedURLs: { [APP_SHELL]: ['index.html'] },
    globIgnores: ['**/inter-{cyrillic,greek,vietnamese}*', 'prerender/**', '.vite/**', 'sw.js'],
  },
})

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [tailwindcss(), pwa],
  oxc: { jsx: PREACT_JSX },
  resolve: {
    alias: [...PREACT_ALIASES, { find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) }],
  },
  build: {
    // Hashed file names under dist/assets: the server can cache them forever and revalidate index.html only.
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    // scripts/prerender.mjs looks up the entry of the hydrated prerendered pages here.
    manifest: true,
    // NO_MINIFY=1 npm run build: readable function names in a profile (bench/web-profile.mjs).
    minify: process.env.NO_MINIFY ? false : undefined,
    rolldownOptions: {
      // The app (index.html), and the script of the prerendered pages that hydrate, which loads the app
      // after the consent dialog: one build, so both share the consent module (docs/decisions/0007).
      input: {
        index: fileURLToPath(new URL('./index.html', import.meta.url)),
        'hydrated-page': fileURLToPath(new URL('./src/hydrated-page-entry.ts', import.meta.url)),
        // The signed-in screens' frames load the app after their first paint (docs/decisions/0065).
        'screen-frame': fileURLToPath(new URL('./src/screen-frame-entry.ts', import.meta.url)),
      },
      output: {
        // The big libraries change less often than our code: their own chunks stay cached across deploys,
        // and hydrated-page-entry.ts evaluates them one task at a time.
        codeSplitting: {
          groups: [
            { name: 'preact', test: /[\\/]node_modules[\\/]preact[\\/]/ },
            // <Trans> (and its HTML parser) only where a page uses it: four pages, no signed-in screen's first load.
            {
              name: 'i18n-trans',
              test: /[\\/]node_modules[\\/](react-i18next[\\/]dist[\\/]es[\\/](Trans|TransWithoutContext)\.js|html-parse-stringify[\\/])/,
              includeDependenciesRecursively: false,
            },
            { name: 'i18n', test: /[\\/]node_modules[\\/](i18next|react-i18next)[\\/]/ },
            { name: 'router', test: /[\\/]node_modules[\\/]react-router[\\/]/ },
            { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]/ },
            { name: 'query', test: /[\\/]node_modules[\\/]@tanstack[\\/]/ },
            // Our shared code and the shell in one chunk (build/chunk-groups.ts); what it imports keeps its chunks.
            { name: appChunk(), debugName: 'app', includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
  server: {
    // In development the SPA and the API live on two ports; the proxy makes them one origin, as in production.
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/socket.io': { target: apiTarget, ws: true, changeOrigin: true },
    },
  },
  preview: {
    // The production server's policy, so `vite preview` catches anything that would break under it.
    headers: { 'Content-Security-Policy': CONTENT_SECURITY_POLICY },
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/socket.io': { target: apiTarget, ws: true, changeOrigin: true },
    },
  },
})
