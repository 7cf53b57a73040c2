/**
 * Renders public pages to HTML at build time (apps/web/scripts/prerender.mjs), with the same
 * providers and routes as the browser, so the static page and the hydrated app match.
 */
import { LANGUAGES, type Language } from '@circles/shared'
import { StrictMode } from 'react'
import type { VNode } from 'preact'
import { renderToStringAsync } from 'preact-render-to-string'
import { StaticRouter } from 'react-router'
import { AppProviders } from '@/app/providers'
import { AppRoutes, preloadRoute } from '@/app/route-table'
import { i18n, initI18n } from '@/lib/i18n'
import { serverTitle } from '@/lib/use-document-title'

export { renderConsentDialog } from '@/lib/consent-prerender'

/** The public pages shipped as static HTML in every language: they paint before any JavaScript runs. */
export const PRERENDERED_PATHS = [
  '/',
  '/about',
  '/privacy',
  '/terms',
  '/contact',
  '/login',
  '/register',
  '/forgot-password',
  '/reset-password',
] as const

/** Every translation namespace, from the file names (locales/en/<ns>.json). */
const NAMESPACES = Object.keys(import.meta.glob('./locales/en/*.json')).map((file) =>
  file.slice('./locales/en/'.length, -'.json'.length),
)

export async function render(path: string, language: Language): Promise<{ html: string; title: string }> {
  await initI18n(language)
  await i18n.changeLanguage(language)
  // Nothing may suspend on the server (a suspended boundary is emitted with an inline script, which the
  // CSP forbids): all strings of both languages, fallback included, are loaded up front.
  await i18n.loadLanguages([...LANGUAGES])
  await i18n.loadNamespaces(NAMESPACES)
  serverTitle.reset()
  // The page's code first: the render then has nothing to wait for, as the browser's hydration.
  await preloadRoute(path)
  // Preact renders it (docs/decisions/0061); the async renderer waits for anything that suspends, so the
  // page comes out whole, without the inline scripts of streamed boundaries that the CSP forbids.
  const page = (
    <StrictMode>
      <AppProviders>
        <StaticRouter location={path}>
          <AppRoutes />
        </StaticRouter>
      </AppProviders>
    </StrictMode>
  )
  const html = await renderToStringAsync(page as unknown as VNode)
  return { html, title: serverTitle.read() }
}
