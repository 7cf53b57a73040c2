import type { Language } from '@circles/shared'
import { QueryClientProvider } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import { StrictMode } from 'react'
import { MemoryRouter } from 'react-router'
import { Toaster } from 'sonner'
import { vi } from 'vitest'
import { initI18n } from '@/lib/i18n'
import { createQueryClient } from '@/lib/query-client'
import { CircleInvitations } from './circle-invitations'

export const CIRCLE_ID = '5b0c8f52-4a55-4f2e-9a0f-2f7c0d1b6e22'
export const API = `/api/circles/${CIRCLE_ID}`

/** The admin's invitations card as the circle page shows it, with a fresh query client and the toaster. */
export async function renderInvitations(language: Language = 'en') {
  const i18n = await initI18n(language)
  await i18n.changeLanguage(language)
  await i18n.loadNamespaces('invitations')
  return render(
    <StrictMode>
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter>
          <CircleInvitations circleId={CIRCLE_ID} />
        </MemoryRouter>
        <Toaster />
      </QueryClientProvider>
    </StrictMode>,
  )
}

export function json(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  })
}

type Handler = (body: unknown) => Response | Promise<Response>

/** Replaces fetch with answers per "METHOD /api/path"; an unexpected call fails the test. */
export function mockApi(handlers: Record<string, Handler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const key = `${init.method ?? 'GET'} ${String(input)}`
    const handler = handlers[key]
    if (!handler) throw new Error(`Unexpected request: ${key}`)
    return handler(typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined)
  })
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

/** How often "METHOD /api/path" was called. */
export function callCount(fetchMock: ReturnType<typeof mockApi>, key: string): number {
  return fetchMock.mock.calls.filter(([input, init]) => `${init?.method ?? 'GET'} ${String(input)}` === key)
    .length
}

export function invitation(overrides: Record<string, unknown> = {}) {
  return {
    id: '6c0c8f52-4a55-4f2e-9a0f-2f7c0d1b6e33',
    email: 'ada@example.com',
    type: 'email',
    status: 'PENDING',
    createdAt: new Date().toISOString(),
    expiresAt: new Date(Date.now() + 6 * 24 * 3600 * 1000 + 60_000).toISOString(),
    ...overrides,
  }
}
