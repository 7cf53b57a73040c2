import { MESSAGES } from '@circles/shared'
import { act, fireEvent, screen, waitFor } from '@/test/testing-library'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, mockApi, renderAuthPage, sentBodies } from '../test/render-auth-page'

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

const RESEND = 'POST /api/users/resend-verification'
const email = () => screen.getByLabelText('Email') as HTMLInputElement

describe('resend verification page', () => {
  it('prefills the stored address once, sends, and confirms with the 1-hour note', async () => {
    localStorage.setItem('verification_email', 'new@example.com')
    const fetchMock = mockApi({ [RESEND]: () => json(200, { message: MESSAGES.verificationSent }) })
    await renderAuthPage('/resend-verification')
    await screen.findByRole('heading', { level: 1, name: 'Resend verification email' })
    await waitFor(() => expect(email().value).toBe('new@example.com'))
    expect(localStorage.getItem('verification_email')).toBeNull()

    fireEvent.click(screen.getByRole('button', { name: 'Send verification email' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Verification email sent!' })).toBeTruthy()
    expect(screen.getByText('The link expires in 1 hour.')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Back to login' }).getAttribute('href')).toBe('/login')
    expect(sentBodies(fetchMock, RESEND)).toEqual([{ email: 'new@example.com' }])
  })

  it('on 429 disables the button with a mm:ss countdown until the wait is over', async () => {
    mockApi({
      [RESEND]: () =>
        json(429, { message: MESSAGES.tooManyVerificationRequests, code: 'RATE_LIMITED', retryAfter: 65 }),
    })
    await renderAuthPage('/resend-verification')
    await screen.findByRole('heading', { level: 1 })
    fireEvent.change(email(), { target: { value: 'new@example.com' } })

    vi.useFakeTimers({ shouldAdvanceTime: true })
    fireEvent.click(screen.getByRole('button', { name: 'Send verification email' }))
    const button = await screen.findByRole('button', { name: 'Please wait before retrying' })
    expect((button as HTMLButtonElement).disabled).toBe(true)
    expect(screen.getByText(MESSAGES.tooManyVerificationRequests)).toBeTruthy()
    expect(screen.getByRole('timer').textContent).toMatch(/01:0[45]/)

    await act(() => vi.advanceTimersByTimeAsync(10_000))
    expect(screen.getByRole('timer').textContent).toMatch(/00:5[45]/)

    await act(() => vi.advanceTimersByTimeAsync(56_000))
    const again = await screen.findByRole('button', { name: 'Send verification email' })
    expect((again as HTMLButtonElement).disabled).toBe(false)
    expect(screen.queryByRole('timer')).toBeNull()
  })

  it('waits the default 05:00 when the server gives no retryAfter', async () => {
    mockApi({ [RESEND]: () => json(429, { message: MESSAGES.tooManyVerificationRequests }) })
    await renderAuthPage('/resend-verification')
    await screen.findByRole('heading', { level: 1 })
    fireEvent.change(email(), { target: { value: 'new@example.com' } })
    fireEvent.click(screen.getByRole('button', { name: 'Send verification email' }))
    expect((await screen.findByRole('timer')).textContent).toMatch(/0[45]:[05]\d/)
  })

  it('shows other failures with the spec fallback', async () => {
    mockApi({ [RESEND]: () => new Response('', { status: 503 }) })
    await renderAuthPage('/resend-verification')
    await screen.findByRole('heading', { level: 1 })
    fireEvent.change(email(), { target: { value: 'new@example.com' } })
    fireEvent.click(screen.getByRole('button', { name: 'Send verification email' }))
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Failed to send verification email. Please try again later.',
    )
  })
})
