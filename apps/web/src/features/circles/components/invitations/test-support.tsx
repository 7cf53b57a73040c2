import type { Language } from '@circles/shared'
import { QueryClientProvider } from '@tanstack/react-query'
import { render } from '@/test/testing-library'
import { StrictMode } from 'react'
import { MemoryRouter } from 'react-router'
import { Toaster } from 'sonner'
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

export { callCount, json, mockApi } from '@/test/mock-api'

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
