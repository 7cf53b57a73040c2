// The stylesheet is linked from index.html, not imported here: the prerendered pages carry it inline and
// load this module later (hydrated-page-entry.ts), which must not fetch it a second time.
// First: configures zod before any schema is parsed.
import '@/lib/zod-config'
import { supportedLanguage, type Language } from '@circles/shared'
import { type VNode, render as renderOver } from 'preact'
import { StrictMode } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { BrowserRouter } from 'react-router'
import { hydrate } from '@tanstack/react-query'
import { firstScreenSettled } from '@/app/first-screen'
import { renderedScreen } from '@/app/rendered-screen'
import { AppProviders, watchLogouts } from '@/app/providers'
import { AppRoutes, prefetchRouteData } from '@/app/route-table'
import { firstRouteReady } from '@/app/router'
import { startShellServices } from '@/app/shell-services'
import { PARTS, stageFirstRender, stageHydration } from '@/components/staged'
import { startConsent } from '@/lib/consent-start'
import { initI18n, pickLanguage } from '@/lib/i18n'
import { releaseInertControls } from '@/lib/inert-controls'
import { loadParts } from '@/lib/lazy-part'
import { warmDateFormats } from '@/lib/intl-formats'
import { queryClient } from '@/lib/query-client'
import { within } from '@/lib/within'
import { initPwaInstall } from '@/pwa'
import { getSession, storedLanguage } from '@/lib/session'
import { prerenderSignedIn } from '@/lib/use-session'
import { startOfflineReading } from '@/pwa/offline'

// Chrome fires beforeinstallprompt once, soon after load: listen before anything waits for the network.
initPwaInstall()
watchLogouts()

const container = document.getElementById('root')
if (!container) throw new Error('index.html must contain #root')

// A screen the server rendered with its data (docs/decisions/0068) brings the answers: the first render
// starts from them and asks for nothing. One rendered for another session is not hydrated: it goes.
const { token, user } = getSession()
const screen = renderedScreen(container, user?.id)
if (screen) hydrate(queryClient, screen.queries)

/**
 * Public pages arrive prerendered (docs/decisions/0007) and hydrate; so do the signed-in screens rendered
 * with their data (0068, 0070), part by part. Other signed-in screens arrive with their frame (0065),
 * which the first render draws over: not a hydration, since the frame was rendered without the session,
 * the query string and the stored settings, and a hydration keeps the attributes it finds. The rest start
 * from an empty root.
 */
const frame = !screen && container.hasAttribute('data-frame')
const prerendered = !frame && container.firstElementChild !== null

/** The language the server rendered the page in (its <html lang>), for a hydration that matches. */
function renderedLanguage(): Language | undefined {
  return supportedLanguage(document.documentElement.lang)
}

/** Prerendered: the page's language, so hydration matches. Otherwise the browser's rule (spec 000 §4). */
const startLanguage: Language =
  (prerendered ? renderedLanguage() : undefined) ??
  pickLanguage(storedLanguage.get(), navigator.languages ?? [navigator.language])

// Signed in: the screen's first requests go out at once (app/screen-data.ts), beside the screen's own
// code, which the page's HTML has been loading since it arrived (docs/decisions/0067). While they are on
// their way, the date formatters the screens use are made (lib/intl-formats.ts).
if (token && user) {
  if (!screen)
    prefetchRouteData(window.location.pathname, new URLSearchParams(window.location.search), user.id)
  warmDateFormats(startLanguage)
}

// The consent dialog is often the largest thing on a first visit: start it now, beside the app, not
// after hydration (shell-services.ts calls the same, idempotent, start again). On the prerendered pages
// hydrated-page-entry.ts has started it already; this returns that one. A visitor who has chosen
// loads none of it (lib/consent-start.ts).
startConsent(startLanguage)

const app = (
  <StrictMode>
    <AppProviders>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  </StrictMode>
)

/** How long a screen rendered from scratch waits for its page's code before showing the loader. */
const FIRST_PAGE_WAIT_MS = 1000

// Render only once the first language's strings are here, so no raw key ever flashes.
void initI18n(startLanguage).then(async (i18n) => {
  if (prerendered) {
    // The page's code and strings first, so the first render matches the prerendered markup; for a
    // screen rendered with its data, its lazy parts' code too (lib/lazy-part.ts). The prerendered page is
    // already visible meanwhile.
    await Promise.all([firstRouteReady, loadParts(screen?.parts ?? [])])
    if (screen) {
      // Hydrated as the server rendered it: for this session, and its parts one per task
      // (components/staged.tsx), so a slow phone's main thread is never blocked for the whole screen. The
      // stored queries (docs/decisions/0054) come once it is hydrated: the hydration renders what the
      // server did, and a stored answer the server had not shown would keep the server's attributes.
      prerenderSignedIn(getSession())
      void stageHydration().then(() => startOfflineReading(queryClient))
    } else void startOfflineReading(queryClient)
    hydrateRoot(container, app)
    // Hydrated but for its parts: its controls outside them work now, those in them with their part.
    releaseInertControls(container, PARTS)
    container.removeAttribute('data-frame')
    // The server chose by cookie and Accept-Language; should the browser's own rule say otherwise
    // (spec 000 §4), follow it now that the markup is ours.
    const preferred = pickLanguage(storedLanguage.get(), navigator.languages ?? [navigator.language])
    if (preferred !== i18n.language) void i18n.changeLanguage(preferred)
  } else {
    // Signed in: the stored queries first, so the pages open with them, offline too (docs/decisions/0054);
    // and the first page's code, loading since startup: rendered with it, the page paints at once.
    // Rendered without it, React shows the loader and keeps it at least 300 ms (its Suspense reveal
    // throttle) even when the code arrives a moment later (issue 27). A slow network gets the loader;
    // a frame stays until the page's code is here (the loader would take its place).
    await Promise.all([
      startOfflineReading(queryClient),
      frame ? firstRouteReady : within(firstRouteReady, FIRST_PAGE_WAIT_MS),
    ])
    // Preact renders in one task: the screen's parts render one per task instead (components/staged.tsx),
    // so a slow phone's main thread is never blocked for the whole screen.
    stageFirstRender()
    // Over a frame, Preact's own render: it keeps the frame's elements and changes what differs (react-dom's
    // createRoot, as compat's, empties the container first, and the frame would be drawn anew).
    if (frame) {
      renderOver(app as unknown as VNode, container)
      // The app's now: the frame's look of its not-yet-working buttons goes (scripts/prerender.mjs).
      container.removeAttribute('data-frame')
    } else createRoot(container).render(app)
  }
  // The real-time connection and the time zone report start once the first screen has painted with its data.
  await firstScreenSettled(queryClient)
  startShellServices(i18n)
})
