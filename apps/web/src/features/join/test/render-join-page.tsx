import type { Language } from '@circles/shared'
import { QueryClientProvider } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import { StrictMode } from 'react'
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router'
import { Toaster } from 'sonner'
import { vi } from 'vitest'
import { initI18n } from '@/lib/i18n'
import { createQueryClient } from '@/lib/query-client'
import { JoinPage } from '../routes/join-page'

/** Stands in for the pages outside this feature; shows where a redirect landed. */
function Landed() {
  const location = useLocation()
  return <p data-testid="landed">{`${location.pathname}${location.search}`}</p>
}

/** /join in a memory router with a fresh query client and the toaster, in StrictMode like the app. */
export async function renderJoinPage(path: string, language: Language = 'en') {
  const i18n = await initI18n(language)
  await i18n.changeLanguage(language)
  await i18n.loadNamespaces('invitations')
  const router = createMemoryRouter(
    [
      { path: '/join', Component: JoinPage },
      { path: '*', Component: Landed },
    ],
    { initialEntries: [path] },
  )
  const view = render(
    <StrictMode>
      <QueryClientProvider client={createQueryClient()}>
        <RouterProvider router={router} />
        <Toaster />
      </QueryClientProvider>
    </StrictMode>,
  )
  return { router, ...view }
}

export function json(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  })
}

/** Replaces fetch with answers per "METHOD /api/path"; an unexpected call fails the test. */
export function mockApi(handlers: Record<string, () => Response | Promise<Response>>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const key = `${init.method ?? 'GET'} ${String(input)}`
    const handler = handlers[key]
    if (!handler) throw new Error(`Unexpected request: ${key}`)
    return handler()
  })
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}
