// Test helper for the circles screens (not shipped: only *.test.tsx files import it).
import type { Language } from '@circles/shared'
import { QueryClientProvider } from '@tanstack/react-query'
import { render, screen, within } from '@testing-library/react'
import { StrictMode, type ComponentType } from 'react'
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router'
import { Toaster } from 'sonner'
import { vi } from 'vitest'
import { initI18n } from '@/lib/i18n'
import { createQueryClient } from '@/lib/query-client'
import { startSession } from '@/lib/session'
import { testUser, validToken } from '@/test/tokens'
import { CirclePage } from '../routes/circle-page'
import { CirclesPage } from '../routes/circles-page'
import { CreateCirclePage } from '../routes/create-circle-page'

/** Stands in for pages outside this feature; shows where a link or redirect landed. */
function Landed() {
  const location = useLocation()
  return <p data-testid="landed">{location.pathname}</p>
}

const pages: Record<string, ComponentType> = {
  '/circles': CirclesPage,
  '/circles/create': CreateCirclePage,
  '/circles/:id': CirclePage,
  '/circle/:id': CirclePage,
}

/**
 * A circles screen in a memory router with a fresh query client and the toaster, signed in as
 * `testUser` (or `as`), in StrictMode like the real entry.
 */
export async function renderCirclesPage(
  path: string,
  { language = 'en', as = testUser }: { language?: Language; as?: typeof testUser } = {},
) {
  const i18n = await initI18n(language)
  await i18n.changeLanguage(language)
  await i18n.loadNamespaces(['circles', 'invitations'])
  startSession(validToken({ sub: as.id }), as)
  const router = createMemoryRouter(
    [
      ...Object.entries(pages).map(([route, Component]) => ({ path: route, Component })),
      { path: '*', Component: Landed },
    ],
    { initialEntries: [path] },
  )
  const queryClient = createQueryClient()
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

export type ApiHandler = (body: unknown, init: RequestInit) => Response | Promise<Response>

export function json(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  })
}

/**
 * Replaces fetch with answers per "METHOD /api/path" (exact, or a prefix ending in "*"). Unknown calls
 * fail loudly. Handlers may be swapped later through the returned `handlers` object.
 */
export function mockApi(initial: Record<string, ApiHandler>) {
  const handlers = { ...initial }
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const key = `${init.method ?? 'GET'} ${String(input)}`
    const match = Object.entries(handlers).find(([pattern]) =>
      pattern.endsWith('*') ? key.startsWith(pattern.slice(0, -1)) : key === pattern,
    )
    if (!match) throw new Error(`Unexpected request: ${key}`)
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined
    return match[1](body, init)
  })
  vi.stubGlobal('fetch', fetchMock)
  return { fetchMock, handlers }
}

/** The JSON bodies sent to one "METHOD /api/path". */
export function sentBodies(fetchMock: ReturnType<typeof mockApi>['fetchMock'], key: string): unknown[] {
  return fetchMock.mock.calls
    .filter(([input, init]) => `${init?.method ?? 'GET'} ${String(input)}` === key)
    .map(([, init]) => (typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined))
}

/** The toaster's region, to find toasts in. */
export const toasts = () => within(screen.getByRole('region', { name: /notifications/i }))

const DAY_MS = 24 * 60 * 60 * 1000
/** An ISO timestamp `days` days before now. */
export const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString()
