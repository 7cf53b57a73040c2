import { MESSAGES } from '@circles/shared'
import { fireEvent, screen, waitFor, within } from '@/test/testing-library'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { getSession, startSession } from '@/lib/session'
import { testUser, validToken } from '@/test/tokens'
import { json, mockApi, renderAuthPage, sentBodies } from '../test/render-auth-page'

afterEach(() => {
  vi.unstubAllGlobals()
  Reflect.deleteProperty(navigator, 'credentials')
})

const emailField = () => screen.getByLabelText('Email')
const typeEmail = (value: string) => fireEvent.change(emailField(), { target: { value } })

async function openPasswordMode(email = 'anna@example.com') {
  typeEmail(email)
  fireEvent.click(screen.getByRole('button', { name: 'Continue with password' }))
  return screen.findByLabelText('Password')
}

function toasts() {
  return within(screen.getByRole('region', { name: /notifications/i }))
}

describe('login page', () => {
  it('asks for the email first and shows the first problem as a toast and under the field', async () => {
    await renderAuthPage('/login')
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in to Circles' })).toBeTruthy()
    expect(document.title).toBe('Log in · Circles')

    fireEvent.click(screen.getByRole('button', { name: 'Continue with password' }))
    expect(await toasts().findByText(MESSAGES.emailRequired)).toBeTruthy()
    expect(emailField().getAttribute('aria-invalid')).toBe('true')

    typeEmail('not-an-email')
    fireEvent.click(screen.getByRole('button', { name: 'Continue with password' }))
    expect(await toasts().findByText(MESSAGES.invalidEmail)).toBeTruthy()
    const describedBy = emailField().getAttribute('aria-describedby') ?? ''
    expect(document.getElementById(describedBy.split(' ')[0] ?? '')?.textContent).toBe(MESSAGES.invalidEmail)
    expect(screen.queryByLabelText('Password')).toBeNull()
  })

  it('signs in with password and remember me, then follows the returnUrl', async () => {
    const fetchMock = mockApi({
      'POST /api/users/login': () => json(200, { token: validToken(), user: testUser }),
    })
    const { router } = await renderAuthPage('/login?returnUrl=%2Fitems%2F7')
    await screen.findByRole('heading', { level: 1 })

    const password = await openPasswordMode('Anna@Example.com')
    await waitFor(() => expect(document.activeElement).toBe(password))
    expect(emailField().hasAttribute('readonly')).toBe(true)
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe(
      '/forgot-password',
    )

    fireEvent.change(password, { target: { value: 'secret-password' } })
    fireEvent.click(screen.getByLabelText('Remember me'))
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }))

    await waitFor(() => expect(router.location.pathname).toBe('/items/7'))
    expect(sentBodies(fetchMock, 'POST /api/users/login')).toEqual([
      { email: 'anna@example.com', password: 'secret-password', rememberMe: true },
    ])
    expect(getSession().user?.id).toBe(testUser.id)
  })

  it('wants the password before calling the server', async () => {
    const fetchMock = mockApi({})
    await renderAuthPage('/login')
    await openPasswordMode()
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }))
    expect(await toasts().findByText(MESSAGES.required)).toBeTruthy()
    expect(screen.getByText(MESSAGES.fieldRequired)).toBeTruthy()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('cancel goes back to the undecided mode with the email editable again', async () => {
    await renderAuthPage('/login')
    await openPasswordMode()
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByLabelText('Password')).toBeNull())
    expect(emailField().hasAttribute('readonly')).toBe(false)
    await waitFor(() => expect(document.activeElement).toBe(emailField()))
  })

  it('shows a wrong password as an error toast', async () => {
    mockApi({
      'POST /api/users/login': () =>
        json(401, { message: MESSAGES.invalidCredentials, code: 'INVALID_CREDENTIALS' }),
    })
    await renderAuthPage('/login')
    fireEvent.change(await openPasswordMode(), { target: { value: 'wrong-password' } })
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }))
    expect(await toasts().findByText(MESSAGES.invalidCredentials)).toBeTruthy()
  })

  it('falls back to "Login failed" when the server says nothing useful', async () => {
    mockApi({ 'POST /api/users/login': () => new Response('<html>bad gateway</html>', { status: 502 }) })
    await renderAuthPage('/login')
    fireEvent.change(await openPasswordMode(), { target: { value: 'whatever1' } })
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }))
    expect(await toasts().findByText('Login failed')).toBeTruthy()
  })

  it('warns an unverified user, remembers the address and offers a new link', async () => {
    mockApi({
      'POST /api/users/login': () =>
        json(401, { message: MESSAGES.emailNotVerified, code: 'EMAIL_NOT_VERIFIED', emailVerified: false }),
    })
    await renderAuthPage('/login')
    fireEvent.change(await openPasswordMode('new@example.com'), { target: { value: 'secret-password' } })
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }))

    const toast = await toasts().findByText(MESSAGES.emailNotVerified)
    expect(toast.closest('[data-sonner-toast]')?.getAttribute('data-type')).toBe('warning')
    expect(localStorage.getItem('verification_email')).toBe('new@example.com')
    expect(screen.getByRole('link', { name: 'Resend verification email' }).getAttribute('href')).toBe(
      '/resend-verification',
    )
  })

  it('takes a pending invitation to /join after signing in, and shows the invitation banner', async () => {
    localStorage.setItem('pending_invitation_token', 'a'.repeat(40))
    localStorage.setItem('invitation_email', 'invited@example.com')
    mockApi({ 'POST /api/users/login': () => json(200, { token: validToken(), user: testUser }) })
    const { router } = await renderAuthPage('/login?returnUrl=%2Fdashboard')

    expect(await screen.findByText('Circle Invitation')).toBeTruthy()
    expect(screen.getByText('Please login or register to accept your circle invitation.')).toBeTruthy()
    await waitFor(() => expect((emailField() as HTMLInputElement).value).toBe('invited@example.com'))
    expect(screen.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe(
      `/register?token=${'a'.repeat(40)}&email=invited%40example.com`,
    )

    fireEvent.click(screen.getByRole('button', { name: 'Continue with password' }))
    fireEvent.change(await screen.findByLabelText('Password'), { target: { value: 'secret-password' } })
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }))
    await waitFor(() => expect(router.location.pathname).toBe('/join'))
    expect(router.location.search).toBe(`?token=${'a'.repeat(40)}`)
    expect(localStorage.getItem('pending_invitation_token')).toBeNull()
  })

  it('recognises an invitation from a returnUrl back to /join', async () => {
    await renderAuthPage(`/login?returnUrl=${encodeURIComponent('/join?token=abc123')}`)
    expect(await screen.findByText('Circle Invitation')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe(
      '/register?token=abc123',
    )
  })

  describe('an invitation opened while signed out names the circle and who invited (issue 23)', () => {
    const TOKEN = 'b'.repeat(40)
    const VERIFY = `GET /api/circles/invitations/${TOKEN}/verify`
    const preview = (name: string | null) => ({
      invitation: {
        id: '5b1c3f0e-2d4a-4e6b-8c7d-9e0f1a2b3c4d',
        email: 'invited@example.com',
        type: 'email',
        status: 'PENDING',
        createdAt: '2026-11-20T10:00:00.000Z',
        expiresAt: '2026-12-20T10:00:00.000Z',
        circleId: '4b7f2b8e-3a51-4c1e-9d7a-6f0e2c1d9a10',
        circleName: 'Maple Street flat',
        name,
      },
    })

    it('in English, and in German with the spec fallback for a nameless inviter', async () => {
      localStorage.setItem('pending_invitation_token', TOKEN)
      mockApi({ [VERIFY]: () => json(200, preview('Ben Neighbour')) })
      const { unmount } = await renderAuthPage('/login')
      expect(
        await screen.findByText(
          'Ben Neighbour invited you to join “Maple Street flat”. Log in or create an account to accept the invitation.',
        ),
      ).toBeTruthy()
      unmount()

      mockApi({ [VERIFY]: () => json(200, preview(null)) })
      await renderAuthPage(`/login?returnUrl=${encodeURIComponent(`/join?token=${TOKEN}`)}`, 'de')
      expect(
        await screen.findByText(
          'Administrator hat dich in den Kreis „Maple Street flat“ eingeladen. Melde dich an oder erstelle ein Konto, um die Einladung anzunehmen.',
        ),
      ).toBeTruthy()
    })

    it('says in the spec words when the invitation is no longer valid', async () => {
      localStorage.setItem('pending_invitation_token', TOKEN)
      mockApi({
        [VERIFY]: () => json(410, { message: MESSAGES.invitationExpired, code: 'INVITATION_EXPIRED' }),
      })
      await renderAuthPage('/login')
      expect(await screen.findByText(MESSAGES.invitationExpired)).toBeTruthy()
      expect(screen.queryByText(/invited you/)).toBeNull()
    })

    it('on the registration page too', async () => {
      mockApi({ [VERIFY]: () => json(200, preview('Ben Neighbour')) })
      await renderAuthPage(`/register?token=${TOKEN}&email=invited%40example.com`)
      expect(
        await screen.findByText(
          'Ben Neighbour invited you to join “Maple Street flat”. Create your account to accept the invitation.',
        ),
      ).toBeTruthy()
    })
  })

  it('shows the success notice after a password reset', async () => {
    await renderAuthPage('/login?message=password-reset-success')
    expect(await screen.findByText('Password updated')).toBeTruthy()
  })

  it('sends a signed-in user to the dashboard', async () => {
    startSession(validToken(), testUser)
    const { router } = await renderAuthPage('/login')
    await waitFor(() => expect(router.location.pathname).toBe('/dashboard'))
  })

  describe('passkey mode', () => {
    it('requires an email', async () => {
      await renderAuthPage('/login')
      fireEvent.click(await screen.findByRole('button', { name: 'Use a passkey' }))
      expect(await toasts().findByText('Email is required to use passkey authentication.')).toBeTruthy()
    })

    it('says so when the browser has no WebAuthn', async () => {
      vi.stubGlobal('PublicKeyCredential', undefined)
      await renderAuthPage('/login')
      typeEmail('anna@example.com')
      fireEvent.click(await screen.findByRole('button', { name: 'Use a passkey' }))
      const button = await screen.findByRole('button', { name: 'Log in with passkey' })
      await waitFor(() => expect(document.activeElement).toBe(button))
      fireEvent.click(button)
      expect(await toasts().findByText('WebAuthn is not supported in this browser')).toBeTruthy()
    })

    it('explains that no passkey is registered when the server has none (404)', async () => {
      vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {})
      Object.defineProperty(navigator, 'credentials', { value: { get: vi.fn() }, configurable: true })
      const fetchMock = mockApi({
        'POST /api/webauthn/login/options': () => json(404, { message: 'Not found', code: 'NOT_FOUND' }),
      })
      await renderAuthPage('/login')
      typeEmail('anna@example.com')
      fireEvent.click(await screen.findByRole('button', { name: 'Use a passkey' }))
      fireEvent.click(await screen.findByRole('button', { name: 'Log in with passkey' }))
      expect(
        await toasts().findByText(
          "You haven't registered any passkeys yet. Please log in with your password and register a passkey in your profile settings.",
        ),
      ).toBeTruthy()
      expect(sentBodies(fetchMock, 'POST /api/webauthn/login/options')).toEqual([
        { email: 'anna@example.com' },
      ])
    })
  })

  it('speaks German', async () => {
    await renderAuthPage('/login', 'de')
    expect(await screen.findByRole('heading', { level: 1, name: 'Bei Circles anmelden' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Weiter mit Passwort' })).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Weiter mit Passwort' }))
    expect(await toasts().findByText('Bitte gib deine E-Mail-Adresse ein')).toBeTruthy()
  })
})
