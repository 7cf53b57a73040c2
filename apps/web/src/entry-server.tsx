/**
 * Renders public pages to HTML at build time (apps/web/scripts/prerender.mjs), with the same
 * providers and routes as the browser, so the static page and the hydrated app match.
 */
import { LANGUAGES, type Language } from '@circles/shared'
import { StrictMode } from 'react'
import { prerender } from 'react-dom/static'
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
  const { prelude } = await prerender(
    <StrictMode>
      <AppProviders>
        <StaticRouter location={path}>
          <AppRoutes />
        </StaticRouter>
      </AppProviders>
    </StrictMode>,
    // Large boundaries would otherwise be streamed out of line with an inline script ($RC), which the
    // CSP forbids and a static page does not need.
    { progressiveChunkSize: Number.MAX_SAFE_INTEGER },
  )
  return { html: await new Response(prelude as unknown as BodyInit).text(), title: serverTitle.read() }
}
