import { screen, waitFor } from '@/test/testing-library'
import { describe, expect, it } from 'vitest'
import { startSession } from '@/lib/session'
import { renderRoute } from '@/test/render-route'
import { testUser, validToken } from '@/test/tokens'

/** Lazy routes on a busy two-core machine can take longer than Testing Library's 1 s default. */
const SLOW = { timeout: 5_000 }

describe('route guards', () => {
  it('shows the landing page to visitors', async () => {
    await renderRoute('/')
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Always know who has what.' }, SLOW),
    ).toBeTruthy()
    const anchors = screen
      .getAllByRole('link', { name: /how it works/i })
      .map((link) => link.getAttribute('href'))
    expect(anchors).toContain('#how-it-works')
  })

  it('sends a visitor from a protected page to /login with a way back', async () => {
    const { router } = await renderRoute('/dashboard?tab=1')
    await waitFor(() => expect(router.location.pathname).toBe('/login'), SLOW)
    expect(router.location.search).toBe(`?returnUrl=${encodeURIComponent('/dashboard?tab=1')}`)
  })

  it('sends a signed-in user from the landing page to the dashboard', async () => {
    startSession(validToken(), testUser)
    const { router } = await renderRoute('/')
    await waitFor(() => expect(router.location.pathname).toBe('/dashboard'), SLOW)
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Welcome back, Anna Keller' }, SLOW),
    ).toBeTruthy()
  })
})
