import type { Language } from '@circles/shared'
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import { StrictMode, type ComponentType } from 'react'
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router'
import { Toaster } from 'sonner'
import { initI18n } from '@/lib/i18n'
import { createQueryClient } from '@/lib/query-client'

/** Stands in for the pages a test did not mount; shows where a link or redirect landed. */
function Landed() {
  const location = useLocation()
  return <p data-testid="landed">{`${location.pathname}${location.search}`}</p>
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
  const router = createMemoryRouter(
    [
      ...Object.entries(pages).map(([route, Component]) => ({ path: route, Component })),
      { path: '*', Component: Landed },
    ],
    { initialEntries: [path] },
  )
  const queryClient = createQueryClient()
  seed?.(queryClient)
  const view = render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
        <Toaster />
      </QueryClientProvider>
    </StrictMode>,
  )
  return { router, queryClient, ...view }
}
