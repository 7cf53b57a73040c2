import type { Language } from '@circles/shared'
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render } from '@/test/testing-library'
import { StrictMode, type ComponentType } from 'react'
import { type RouteObject, useLocation, useRoutes } from 'react-router'
import { Toaster } from 'sonner'
import { initI18n } from '@/lib/i18n'
import { createQueryClient } from '@/lib/query-client'
import { inMemoryRouter } from '@/test/memory-router'

/** Stands in for the pages a test did not mount; shows where a link or redirect landed. */
function Landed() {
  const location = useLocation()
  return <p data-testid="landed">{`${location.pathname}${location.search}`}</p>
}

function Pages({ routes }: { routes: RouteObject[] }) {
  return useRoutes(routes)
}

/**
 * A feature's pages in a memory router with the app's runtime providers (a fresh query client, the
 * toaster), in StrictMode like the real entry, so double-run effects show up here too.
 */
export async function renderPages(
  pages: Record<string, ComponentType>,
  path: string,
  {
    language = 'en',
    namespaces = [],
    seed,
  }: {
    language?: Language
    namespaces?: string[]
    /** Fills the query cache before the first render (what the device already had). */
    seed?: (client: QueryClient) => void
  } = {},
) {
  const i18n = await initI18n(language)
  await i18n.changeLanguage(language)
  await i18n.loadNamespaces(namespaces)
  const routes = [
    ...Object.entries(pages).map(([route, Component]) => ({ path: route, Component })),
    { path: '*', Component: Landed },
  ]
  const { router, element } = inMemoryRouter(path, <Pages routes={routes} />)
  const queryClient = createQueryClient()
  seed?.(queryClient)
  const view = render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        {element}
        <Toaster />
      </QueryClientProvider>
    </StrictMode>,
  )
  return { router, queryClient, ...view }
}
