import { fireEvent, screen } from '@/test/testing-library'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { logout, startSession } from '@/lib/session'
import { json, mockApi } from '@/test/mock-api'
import { renderPages } from '@/test/render-pages'
import { testUser, validToken } from '@/test/tokens'
import { ProfilePage } from './profile-page'

const render = () => renderPages({ '/profile': ProfilePage }, '/profile', { namespaces: ['profile'] })

afterEach(async () => {
  vi.unstubAllGlobals()
  await logout()
  localStorage.clear()
})

describe('ProfilePage (spec 001 §2)', () => {
  it('asks a visitor to log in', async () => {
    await render()
    expect(screen.getByRole('heading', { name: 'Please login to view your profile' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe(
      '/login?returnUrl=%2Fprofile',
    )
  })

  it('has two tabs, moved between with the arrow keys; passkeys say when the browser cannot', async () => {
    startSession(validToken(), testUser)
    mockApi({
      'GET /api/users/me/notifications': () =>
        json(200, {
          notices: {
            handoverRequests: true,
            handoverAnswers: false,
            invitations: true,
            loanReminders: true,
            borrowRequests: true,
            loanChanges: true,
            push: { handoverRequests: true, handoverAnswers: true, invitations: true, loanReminders: true },
          },
        }),
      'GET /api/users/me/calendar': () => json(200, { url: null }),
    })
    vi.stubGlobal('PublicKeyCredential', undefined)
    await render()
    const info = screen.getByRole('tab', { name: 'Profile Information' })
    expect(info.getAttribute('aria-selected')).toBe('true')
    expect(screen.getByText(testUser.email)).toBeTruthy()
    expect(
      ((await screen.findByLabelText('When my handover request is accepted or rejected')) as HTMLInputElement)
        .checked,
    ).toBe(false)
    fireEvent.keyDown(info, { key: 'ArrowRight' })
    const security = screen.getByRole('tab', { name: 'Security & Access' })
    expect(security.getAttribute('aria-selected')).toBe('true')
    expect(document.activeElement).toBe(security)
    expect(screen.getByText('Verified')).toBeTruthy()
    expect(screen.getByText('WebAuthn is not supported in this browser')).toBeTruthy()
  })
})
