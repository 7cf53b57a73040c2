import { MESSAGES } from '@circles/shared'
import { fireEvent, screen, waitFor, within } from '@/test/testing-library'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, mockApi, renderAuthPage, sentBodies } from '../test/render-auth-page'

afterEach(() => {
  vi.unstubAllGlobals()
})

const toasts = () => within(screen.getByRole('region', { name: /notifications/i }))
const email = () => screen.getByLabelText('Email') as HTMLInputElement
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }))

describe('forgot password page', () => {
  it("wants an email, then a valid one, with the spec's texts", async () => {
    mockApi({})
    await renderAuthPage('/forgot-password')
    await screen.findByRole('heading', { level: 1, name: 'Forgot your password?' })
    submit()
    expect(await toasts().findByText(MESSAGES.emailRequired)).toBeTruthy()
    fireEvent.change(email(), { target: { value: 'ann@' } })
    submit()
    expect(await toasts().findByText(MESSAGES.invalidEmail)).toBeTruthy()
  })

  it('shows the sent state, and "Try a different email" returns to an empty form', async () => {
    const fetchMock = mockApi({
      'POST /api/users/request-password-reset': () => json(200, { message: MESSAGES.resetRequested }),
    })
    await renderAuthPage('/forgot-password')
    await screen.findByRole('heading', { level: 1 })
    fireEvent.change(email(), { target: { value: 'ann@example.com' } })
    submit()

    expect(await screen.findByRole('heading', { level: 1, name: 'Check Your Email' })).toBeTruthy()
    expect(screen.getByText(MESSAGES.resetRequested)).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Back to login' }).getAttribute('href')).toBe('/login')
    expect(sentBodies(fetchMock, 'POST /api/users/request-password-reset')).toEqual([
      { email: 'ann@example.com' },
    ])

    fireEvent.click(screen.getByRole('button', { name: 'Try a different email' }))
    await waitFor(() => expect(document.activeElement).toBe(email()))
    expect(email().value).toBe('')
  })

  it("shows the server's message, or the spec's fallback", async () => {
    mockApi({
      'POST /api/users/request-password-reset': () => new Response('', { status: 500 }),
    })
    await renderAuthPage('/forgot-password')
    await screen.findByRole('heading', { level: 1 })
    fireEvent.change(email(), { target: { value: 'ann@example.com' } })
    submit()
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Failed to send password reset email. Please try again.',
    )
  })
})
