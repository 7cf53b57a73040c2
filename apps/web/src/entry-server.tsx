/**
 * Renders public pages, and the frames of the signed-in screens, to HTML at build time
 * (apps/web/scripts/prerender.mjs), with the same providers and routes as the browser, so the static
 * page and the hydrated app match, and the app renders over a frame without changing it.
 */
import { LANGUAGES, type Language, type TUser } from '@circles/shared'
import { dehydrate, type DehydratedState } from '@tanstack/react-query'
import { StrictMode } from 'react'
import type { VNode } from 'preact'
import { renderToStringAsync } from 'preact-render-to-string'
import { StaticRouter } from 'react-router'
import { AppProviders } from '@/app/providers'
import { AppRoutes, hasScreenData, prefetchRouteData, preloadRoute, routeSources } from '@/app/route-table'
import { prerenderFrame, stageServerRender } from '@/components/staged'
import { sendRequestsThrough } from '@/lib/api-client'
import { i18n, initI18n } from '@/lib/i18n'
import { recordParts } from '@/lib/lazy-part'
import { renderInTimeZone } from '@/lib/intl-formats'
import { renderAtOrigin } from '@/lib/page-origin'
import { queryClient } from '@/lib/query-client'
import { serverTitle } from '@/lib/use-document-title'
import { renderForSession } from '@/lib/session'
import { prerenderSignedIn } from '@/lib/use-session'

export { renderConsentDialog } from '@/lib/consent-prerender'
export { INITIAL_NAMESPACES } from '@/lib/i18n'
export { routeSources }

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
  queryClient.clear()
  return renderPage(path, language)
}

/** A signed-in screen, rendered on request with its data (docs/decisions/0068). */
export interface ScreenRequest {
  /** The page's path and query string, e.g. `/items/…?tab=history`. */
  url: string
  /** The request's origin, as the browser will find it (`https://circles.example`). */
  origin: string
  language: Language
  /** The request's session (its cookie), checked by the server. */
  token: string
  user: TUser
  /** The server's own answer to each of the screen's API requests, made with `token`. */
  fetch: typeof fetch
}

export interface RenderedScreen {
  html: string
  title: string
  /** The screen's queries, for the page to start from (app/main.tsx). */
  queries: DehydratedState
  /** Its lazy parts (lib/lazy-part.ts), loaded before the page hydrates it. */
  parts: string[]
}

/**
 * The screen at `url` with its data, as the app renders it for `user`: its first requests
 * (app/screen-data.ts) answered by the server through the same routes, and so the same access checks,
 * as the browser's. Undefined for a path without them, or when one fails (the page then loads as
 * before and shows the failure itself). One at a time: the renderer's state (the session, the query
 * cache, the language) is this module's, as in the browser.
 */
export async function renderScreen({ url, origin, language, token, user, fetch }: ScreenRequest) {
  const { pathname, search, searchParams } = new URL(url, 'http://localhost')
  if (!hasScreenData(pathname)) return undefined
  const session = { token, user }
  renderForSession(session)
  prerenderSignedIn(session)
  prerenderFrame(false)
  stageServerRender(true)
  sendRequestsThrough(fetch)
  renderAtOrigin(origin)
  renderInTimeZone(user.timeZone)
  queryClient.clear()
  // No second try: a failed request sends the page without data at once; the browser tries again.
  const defaults = queryClient.getDefaultOptions()
  queryClient.setDefaultOptions({ ...defaults, queries: { ...defaults.queries, retry: false } })
  try {
    await Promise.all(prefetchRouteData(pathname, searchParams, user.id))
    if (
      queryClient
        .getQueryCache()
        .getAll()
        .some((query) => query.state.status !== 'success')
    )
      return undefined
    const [page, parts] = await recordParts(() => renderPage(pathname, language, search))
    // What the page rendered from, answered queries only: the browser's first render starts from them;
    // and the lazy parts in it, which the browser loads before it hydrates it.
    return { ...page, queries: dehydrate(queryClient), parts } satisfies RenderedScreen
  } finally {
    stageServerRender(false)
    sendRequestsThrough(undefined)
    renderAtOrigin(undefined)
    renderInTimeZone(undefined)
    renderForSession({ token: null, user: null })
    prerenderSignedIn(false)
    queryClient.setDefaultOptions(defaults)
    queryClient.clear()
  }
}

/**
 * Everything a screen's render loads once (strings, every page's code), loaded now: the server calls it
 * at start, so that its first render of a screen takes as long as any other.
 */
export async function warmUp(): Promise<void> {
  await loadStrings('en')
  await Promise.all(routeSources().map(({ path }) => preloadRoute(path.replace(/:[^/]+/g, 'x'))))
}

/**
 * The i18n instance in `language`, with all strings of both languages loaded. Nothing may suspend on the
 * server (a suspended boundary is emitted with an inline script, which the CSP forbids): the fallback's
 * strings too are loaded up front.
 */
async function loadStrings(language: Language): Promise<void> {
  await initI18n(language)
  await i18n.changeLanguage(language)
  await i18n.loadLanguages([...LANGUAGES])
  await i18n.loadNamespaces(NAMESPACES)
}

async function renderPage(
  path: string,
  language: Language,
  search = '',
): Promise<{ html: string; title: string }> {
  await loadStrings(language)
  serverTitle.reset()
  // The page's code first: the render then has nothing to wait for, as the browser's hydration.
  await preloadRoute(path)
  // Preact renders it (docs/decisions/0061); the async renderer waits for anything that suspends, so the
  // page comes out whole, without the inline scripts of streamed boundaries that the CSP forbids.
  const page = (
    <StrictMode>
      <AppProviders>
        <StaticRouter location={`${path}${search}`}>
          <AppRoutes />
        </StaticRouter>
      </AppProviders>
    </StrictMode>
  )
  const html = await renderToStringAsync(page as unknown as VNode)
  return { html, title: serverTitle.read() }
}
