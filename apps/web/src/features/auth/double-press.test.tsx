import { MESSAGES } from '@circles/shared'
import { fireEvent, screen, waitFor } from '@/test/testing-library'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { callCount } from '@/test/mock-api'
import { testUser, validToken } from '@/test/tokens'
import { json, mockApi, renderAuthPage } from './test/render-auth-page'

// Several screens per test: room for a busy machine.
vi.setConfig({ testTimeout: 20_000 })

afterEach(() => {
  vi.unstubAllGlobals()
  localStorage.clear()
})

/** Two submits in a row, the second before the page could re-render: a double click or Enter twice. */
function submitTwice(button: HTMLElement) {
  const form = button.closest('form')!
  fireEvent.submit(form)
  fireEvent.submit(form)
}
/** Lets every request that would go out go out. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 20))

describe('a double submit sends one request (issue 23)', () => {
  it('Log in', async () => {
    const fetchMock = mockApi({
      'POST /api/users/login': () => json(200, { token: validToken(), user: testUser }),
      '*': () => json(200, {}),
    })
    const { router } = await renderAuthPage('/login')
    await screen.findByRole('heading', { level: 1 })
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'anna@example.com' } })
    fireEvent.click(screen.getByRole('button', { name: 'Continue with password' }))
    fireEvent.change(await screen.findByLabelText('Password'), { target: { value: 'secret-password' } })
    submitTwice(screen.getByRole('button', { name: 'Log in' }))
    await waitFor(() => expect(router.location.pathname).not.toBe('/login'))
    await settle()
    expect(callCount(fetchMock, 'POST /api/users/login')).toBe(1)
  })

  it('Forgot password', async () => {
    const fetchMock = mockApi({
      'POST /api/users/request-password-reset': () => json(200, { message: MESSAGES.resetRequested }),
    })
    await renderAuthPage('/forgot-password')
    await screen.findByRole('heading', { level: 1 })
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ann@example.com' } })
    submitTwice(screen.getByRole('main').querySelector('button[type="submit"]')!)
    expect(await screen.findByRole('heading', { level: 1, name: 'Check Your Email' })).toBeTruthy()
    await settle()
    expect(callCount(fetchMock, 'POST /api/users/request-password-reset')).toBe(1)
  })

  it('Resend verification email', async () => {
    const fetchMock = mockApi({
      'POST /api/users/resend-verification': () => json(200, { message: MESSAGES.verificationSent }),
    })
    await renderAuthPage('/resend-verification')
    await screen.findByRole('heading', { level: 1, name: 'Resend verification email' })
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'new@example.com' } })
    submitTwice(screen.getByRole('button', { name: 'Send verification email' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Verification email sent!' })).toBeTruthy()
    await settle()
    expect(callCount(fetchMock, 'POST /api/users/resend-verification')).toBe(1)
  })

  it('Register', async () => {
    const fetchMock = mockApi({
      'POST /api/users/register': () =>
        json(201, { message: MESSAGES.registrationNeedsVerification, requiresVerification: true }),
    })
    await renderAuthPage('/register')
    await screen.findByRole('heading', { level: 1 })
    const fields = { Name: 'Ann', Email: 'ann@example.com', Password: 'long-enough' }
    for (const [label, value] of Object.entries(fields))
      fireEvent.change(screen.getByLabelText(label), { target: { value } })
    fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'long-enough' } })
    submitTwice(screen.getByRole('main').querySelector('button[type="submit"]')!)
    expect(await screen.findByRole('heading', { level: 1, name: 'Check your email' })).toBeTruthy()
    await settle()
    expect(callCount(fetchMock, 'POST /api/users/register')).toBe(1)
  })

  it('Reset password', async () => {
    const token = 'f'.repeat(64)
    const fetchMock = mockApi({
      [`GET /api/users/verify-reset-token/${token}`]: () => json(200, { valid: true }),
      'POST /api/users/reset-password': () => json(200, { message: MESSAGES.resetSuccess }),
    })
    await renderAuthPage(`/reset-password?token=${token}`)
    await screen.findByRole('heading', { level: 1, name: 'Choose a new password' })
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'long-enough' } })
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'long-enough' } })
    submitTwice(screen.getByRole('button', { name: 'Reset password' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Password Reset Successful' })).toBeTruthy()
    await settle()
    expect(callCount(fetchMock, 'POST /api/users/reset-password')).toBe(1)
  })
})
