import { preloadRoute } from '@/app/route-table'

/**
 * The first page's code and strings, started at import so they load while main.tsx waits for
 * translations; main.tsx hydrates a prerendered page once this has resolved, and renders any other
 * screen with it (waiting at most a second), so the first paint is the page.
 */
export const firstRouteReady = preloadRoute(window.location.pathname)
