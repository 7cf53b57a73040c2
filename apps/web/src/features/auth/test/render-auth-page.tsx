import type { Language } from '@circles/shared'
import { QueryClientProvider } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import { StrictMode, type ComponentType } from 'react'
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router'
import { Toaster } from 'sonner'
import { vi } from 'vitest'
import { initI18n } from '@/lib/i18n'
import { createQueryClient } from '@/lib/query-client'
import { ForgotPasswordPage } from '../routes/forgot-password-page'
import { LoginPage } from '../routes/login-page'
import { RegisterPage } from '../routes/register-page'
import { ResendVerificationPage } from '../routes/resend-verification-page'
import { ResetPasswordPage } from '../routes/reset-password-page'
import { VerifyPage } from '../routes/verify-page'

/** Stands in for pages outside this feature; shows where a redirect landed. */
function Landed() {
  const location = useLocation()
  return <p data-testid="landed">{`${location.pathname}${location.search}`}</p>
}

const pages: Record<string, ComponentType> = {
  '/login': LoginPage,
  '/register': RegisterPage,
  '/forgot-password': ForgotPasswordPage,
  '/reset-password': ResetPasswordPage,
  '/verify': VerifyPage,
  '/resend-verification': ResendVerificationPage,
}

/**
 * The auth pages in a memory router with the app's runtime providers (query client, toaster), in
 * StrictMode like the real entry, so double-run effects show up here too.
 */
export async function renderAuthPage(path: string, language: Language = 'en') {
  const i18n = await initI18n(language)
  await i18n.changeLanguage(language)
  await i18n.loadNamespaces('auth')
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
 * fail the test loudly. Returns the mock, whose calls show what was sent.
 */
export function mockApi(handlers: Record<string, ApiHandler>) {
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
  return fetchMock
}

/** The JSON bodies sent to one "METHOD /api/path". */
export function sentBodies(fetchMock: ReturnType<typeof mockApi>, key: string): unknown[] {
  return fetchMock.mock.calls
    .filter(([input, init]) => `${init?.method ?? 'GET'} ${String(input)}` === key)
    .map(([, init]) => (typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined))
}
