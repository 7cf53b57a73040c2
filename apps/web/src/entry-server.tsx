/**
 * Renders public pages, and the frames of the signed-in screens, to HTML at build time
 * (apps/web/scripts/prerender.mjs), with the same providers and routes as the browser, so the static
 * page and the hydrated app match, and the app renders over a frame without changing it.
 */
import { LANGUAGES, type Language } from '@circles/shared'
import { StrictMode } from 'react'
import type { VNode } from 'preact'
import { renderToStringAsync } from 'preact-render-to-string'
import { StaticRouter } from 'react-router'
import { AppProviders } from '@/app/providers'
import { AppRoutes, preloadRoute } from '@/app/route-table'
import { prerenderFrame } from '@/components/staged'
import { i18n, initI18n } from '@/lib/i18n'
import { queryClient } from '@/lib/query-client'
import { serverTitle } from '@/lib/use-document-title'
import { prerenderSignedIn } from '@/lib/use-session'

export { renderConsentDialog } from '@/lib/consent-prerender'
export { routeSources } from '@/app/route-table'
export { INITIAL_NAMESPACES } from '@/lib/i18n'

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

/**
 * The signed-in screens that arrive with their frame (docs/decisions/0065): the app header and what the
 * page shows before its first <Staged> part (heading, intro, actions), painted with the HTML instead
 * of after the app's scripts. Only screens whose top is the same for everyone: a screen headed by its
 * data (a circle's, an item's name) would change under the reader's eyes, and loads as before.
 */
export const SCREEN_FRAMES = ['/dashboard', '/circles', '/items', '/loans', '/blockchain'] as const

export async function render(
  path: string,
  language: Language,
  { frame = false }: { frame?: boolean } = {},
): Promise<{ html: string; title: string }> {
  prerenderSignedIn(frame)
  prerenderFrame(frame)
  await initI18n(language)
  await i18n.changeLanguage(language)
  // Nothing may suspend on the server (a suspended boundary is emitted with an inline script, which the
  // CSP forbids): all strings of both languages, fallback included, are loaded up front.
  await i18n.loadLanguages([...LANGUAGES])
  await i18n.loadNamespaces(NAMESPACES)
  serverTitle.reset()
  // The page's code first: the render then has nothing to wait for, as the browser's hydration.
  await preloadRoute(path)
  queryClient.clear()
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
