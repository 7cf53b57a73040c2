import { MESSAGES } from '@circles/shared'
import { act, fireEvent, screen, waitFor } from '@/test/testing-library'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, mockApi, renderAuthPage } from '../test/render-auth-page'

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

const TOKEN = 'a1'.repeat(32)
const VERIFY = `GET /api/users/verify/${TOKEN}`

describe('verify page', () => {
  it('without a token says so and offers the way on', async () => {
    await renderAuthPage('/verify')
    expect(await screen.findByText('No verification token provided')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Request a new link' }).getAttribute('href')).toBe(
      '/resend-verification',
    )
    expect(screen.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/login')
  })

  it('verifies once even in StrictMode, remembers the token and goes to login after 2 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const fetchMock = mockApi({
      [VERIFY]: () => json(200, { verified: true, message: MESSAGES.emailVerified }),
    })
    const { router } = await renderAuthPage(`/verify?token=${TOKEN}`)
    expect(await screen.findByRole('heading', { level: 1, name: "You're all set" })).toBeTruthy()
    expect(screen.getByText(MESSAGES.emailVerified)).toBeTruthy()
    expect(fetchMock).toHaveBeenCalledTimes(1)
    expect(localStorage.getItem('temp_verification_token')).toBe(TOKEN)

    await act(() => vi.advanceTimersByTimeAsync(2000))
    await waitFor(() => expect(router.location.pathname).toBe('/login'))
  })

  it('opens the login with the verified address filled in, after 2 s or from the Log in link', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    mockApi({
      [VERIFY]: () =>
        json(200, { verified: true, message: MESSAGES.emailVerified, email: 'ben@example.com' }),
    })
    const { router, unmount } = await renderAuthPage(`/verify?token=${TOKEN}`)
    await screen.findByRole('heading', { level: 1, name: "You're all set" })
    await act(() => vi.advanceTimersByTimeAsync(2000))
    await waitFor(() => expect(router.location.pathname).toBe('/login'))
    await waitFor(() =>
      expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('ben@example.com'),
    )
    expect(router.location.search).toBe('')
    unmount()
    vi.useRealTimers()

    localStorage.setItem('temp_verification_token', TOKEN)
    localStorage.setItem('verification_email', 'cleo@example.com')
    await renderAuthPage(`/verify?token=${TOKEN}`, 'de')
    fireEvent.click(await screen.findByRole('link', { name: 'Jetzt anmelden' }))
    await waitFor(() =>
      expect((screen.getByLabelText('E-Mail-Adresse') as HTMLInputElement).value).toBe('cleo@example.com'),
    )
  })

  it('counts a repeat visit with the stored token as success without asking again', async () => {
    localStorage.setItem('temp_verification_token', TOKEN)
    const fetchMock = mockApi({})
    await renderAuthPage(`/verify?token=${TOKEN}`)
    expect(await screen.findByRole('heading', { level: 1, name: "You're all set" })).toBeTruthy()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('counts an "already verified" error answer as success', async () => {
    mockApi({ [VERIFY]: () => json(400, { message: 'Your email is already verified' }) })
    await renderAuthPage(`/verify?token=${TOKEN}`)
    expect(await screen.findByRole('heading', { level: 1, name: "You're all set" })).toBeTruthy()
  })

  it.each([
    [429, { message: MESSAGES.tooManyVerifications, code: 'RATE_LIMITED' }, MESSAGES.tooManyVerifications],
    [
      401,
      { message: MESSAGES.verificationTokenInvalid, code: 'INVALID_TOKEN', verified: false },
      MESSAGES.verificationTokenInvalid,
    ],
    [200, { message: 'ok' }, 'Verification failed: No verification status in response'],
    [500, undefined, 'Error verifying email. Please try again later.'],
  ])('answer %i shows the spec text', async (status, body, text) => {
    mockApi({ [VERIFY]: () => json(status, body) })
    await renderAuthPage(`/verify?token=${TOKEN}`)
    expect(
      await screen.findByRole('heading', { level: 1, name: "We couldn't verify your email" }),
    ).toBeTruthy()
    expect(screen.getByRole('alert').textContent).toBe(text)
  })
})
