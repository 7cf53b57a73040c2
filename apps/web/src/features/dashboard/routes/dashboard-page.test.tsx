import { screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { invitationEmail, logout, pendingInvitationToken, startSession } from '@/lib/session'
import { renderRoute } from '@/test/render-route'
import { testUser, validToken } from '@/test/tokens'

afterEach(async () => {
  vi.unstubAllGlobals()
  await logout()
  localStorage.clear()
})

describe('DashboardPage', () => {
  it('greets the signed-in user', async () => {
    startSession(validToken(), testUser)
    await renderRoute('/dashboard')
    expect(await screen.findByRole('heading', { level: 1, name: /Anna Keller/ })).toBeTruthy()
  })

  it('sends a stored pending invitation to /join first and forgets it (spec 000 §2)', async () => {
    startSession(validToken(), testUser)
    const token = 'ab'.repeat(32)
    // The join page starts checking the invitation; that answer does not matter here.
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise(() => {})),
    )
    pendingInvitationToken.set(token)
    invitationEmail.set('anna@example.com')
    const { router } = await renderRoute('/dashboard')
    await waitFor(() => expect(router.state.location.pathname).toBe('/join'))
    expect(router.state.location.search).toBe(`?token=${token}`)
    expect(pendingInvitationToken.get()).toBeNull()
    expect(invitationEmail.get()).toBeNull()
  })
})
