import { MESSAGES } from '@circles/shared'
import { act, fireEvent, screen, waitFor, within } from '@/test/testing-library'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, mockApi, renderAuthPage, sentBodies } from '../test/render-auth-page'

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

const TOKEN = 'f'.repeat(64)
const toasts = () => within(screen.getByRole('region', { name: /notifications/i }))
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Reset password' }))

function fill(newPassword: string, confirmPassword: string) {
  fireEvent.change(screen.getByLabelText('New password'), { target: { value: newPassword } })
  fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: confirmPassword } })
}

describe('reset password page', () => {
  it('without a token, says the link is invalid and offers a new one', async () => {
    const fetchMock = mockApi({})
    await renderAuthPage('/reset-password')
    expect(await screen.findByRole('heading', { level: 1, name: 'Invalid Reset Link' })).toBeTruthy()
    expect(screen.getByText(MESSAGES.resetLinkInvalid)).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Request a new link' }).getAttribute('href')).toBe(
      '/forgot-password',
    )
    expect(screen.getByRole('link', { name: 'Back to login' }).getAttribute('href')).toBe('/login')
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('checks the token first, and a refused one is an invalid link', async () => {
    mockApi({
      [`GET /api/users/verify-reset-token/${TOKEN}`]: () =>
        json(401, { message: MESSAGES.resetLinkInvalid, code: 'INVALID_TOKEN' }),
    })
    await renderAuthPage(`/reset-password?token=${TOKEN}`)
    expect(screen.getByRole('heading', { level: 1, name: 'Verifying reset token...' })).toBeTruthy()
    expect(await screen.findByRole('heading', { level: 1, name: 'Invalid Reset Link' })).toBeTruthy()
  })

  it('checks the form in the spec order, then resets and returns to login after 3 s', async () => {
    const fetchMock = mockApi({
      [`GET /api/users/verify-reset-token/${TOKEN}`]: () => json(200, { valid: true }),
      'POST /api/users/reset-password': () => json(200, { message: MESSAGES.resetSuccess }),
    })
    const { router } = await renderAuthPage(`/reset-password?token=${TOKEN}`)
    await screen.findByRole('heading', { level: 1, name: 'Choose a new password' })

    submit()
    expect(await toasts().findByText(MESSAGES.resetBothRequired)).toBeTruthy()
    fill('short', 'short')
    submit()
    expect(await toasts().findByText(MESSAGES.resetPasswordMin)).toBeTruthy()
    fill('long-enough', 'long-enougx')
    submit()
    expect(await toasts().findByText(MESSAGES.resetPasswordsDoNotMatch)).toBeTruthy()
    expect(screen.getByLabelText('Confirm new password').getAttribute('aria-invalid')).toBe('true')

    vi.useFakeTimers({ shouldAdvanceTime: true })
    fill('long-enough', 'long-enough')
    submit()
    expect(await screen.findByRole('heading', { level: 1, name: 'Password Reset Successful' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Go to Login' }).getAttribute('href')).toBe(
      '/login?message=password-reset-success',
    )
    expect(sentBodies(fetchMock, 'POST /api/users/reset-password')).toEqual([
      { token: TOKEN, newPassword: 'long-enough', confirmPassword: 'long-enough' },
    ])

    await act(() => vi.advanceTimersByTimeAsync(2900))
    expect(router.location.pathname).toBe('/reset-password')
    await act(() => vi.advanceTimersByTimeAsync(200))
    await waitFor(() => expect(router.location.search).toBe('?message=password-reset-success'))
  })

  it('has show/hide toggles named for what they do', async () => {
    mockApi({ [`GET /api/users/verify-reset-token/${TOKEN}`]: () => json(200, { valid: true }) })
    await renderAuthPage(`/reset-password?token=${TOKEN}`)
    await screen.findByRole('heading', { level: 1, name: 'Choose a new password' })
    const input = screen.getByLabelText('New password') as HTMLInputElement
    const [toggle] = screen.getAllByRole('button', { name: 'Show password' })
    expect(input.type).toBe('password')
    fireEvent.click(toggle!)
    expect(input.type).toBe('text')
    expect(toggle!.getAttribute('aria-label')).toBe('Hide password')
  })
})
