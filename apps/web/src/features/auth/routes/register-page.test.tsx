import { MESSAGES } from '@circles/shared'
import { fireEvent, screen, waitFor, within } from '@/test/testing-library'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { getSession } from '@/lib/session'
import { testUser, validToken } from '@/test/tokens'
import { json, mockApi, renderAuthPage, sentBodies } from '../test/render-auth-page'

afterEach(() => {
  vi.unstubAllGlobals()
})

const toasts = () => within(screen.getByRole('region', { name: /notifications/i }))
const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement

function fill(values: Partial<Record<'Name' | 'Email' | 'Password' | 'Confirm password', string>>) {
  for (const [label, value] of Object.entries(values)) fireEvent.change(field(label), { target: { value } })
}

const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Create account' }))

describe('register page', () => {
  it('checks in the spec order: every field first, then name, email, password, confirmation', async () => {
    const fetchMock = mockApi({})
    await renderAuthPage('/register')
    expect(await screen.findByRole('heading', { level: 1, name: 'Create your account' })).toBeTruthy()

    fill({ Name: 'A' })
    submit()
    expect(await toasts().findByText(MESSAGES.required)).toBeTruthy()
    expect(screen.getAllByText(MESSAGES.fieldRequired)).toHaveLength(3)

    fill({ Email: 'ann@example', Password: 'short', 'Confirm password': 'other' })
    submit()
    expect(await toasts().findByText(MESSAGES.nameMin)).toBeTruthy()

    fill({ Name: 'Ann' })
    submit()
    expect(await toasts().findByText(MESSAGES.invalidEmail)).toBeTruthy()

    fill({ Email: 'ann@example.com' })
    submit()
    expect(await toasts().findByText(MESSAGES.passwordMin)).toBeTruthy()

    fill({ Password: 'long-enough' })
    submit()
    expect(await toasts().findByText(MESSAGES.passwordsDontMatch)).toBeTruthy()
    expect(field('Confirm password').getAttribute('aria-invalid')).toBe('true')
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('shows the check-your-email state when verification is required, and remembers the address', async () => {
    const fetchMock = mockApi({
      'POST /api/users/register': () =>
        json(201, { message: MESSAGES.registrationNeedsVerification, requiresVerification: true }),
    })
    await renderAuthPage('/register')
    await screen.findByRole('heading', { level: 1 })
    fill({
      Name: 'Ann',
      Email: 'Ann@Example.com',
      Password: 'long-enough',
      'Confirm password': 'long-enough',
    })
    submit()

    const heading = await screen.findByRole('heading', { level: 1, name: 'Check your email' })
    expect(screen.getByText(MESSAGES.registrationNeedsVerification)).toBeTruthy()
    await waitFor(() => expect(document.activeElement).toBe(heading))
    expect(screen.getByRole('link', { name: 'Resend verification email' }).getAttribute('href')).toBe(
      '/resend-verification',
    )
    expect(localStorage.getItem('verification_email')).toBe('ann@example.com')
    expect(getSession().token).toBeNull()
    expect(sentBodies(fetchMock, 'POST /api/users/register')).toEqual([
      { name: 'Ann', email: 'ann@example.com', password: 'long-enough', language: 'en' },
    ])
  })

  it('explains an existing account and links to login', async () => {
    mockApi({
      'POST /api/users/register': () => json(409, { message: MESSAGES.userExists, code: 'USER_EXISTS' }),
    })
    await renderAuthPage('/register')
    await screen.findByRole('heading', { level: 1 })
    fill({
      Name: 'Ann',
      Email: 'ann@example.com',
      Password: 'long-enough',
      'Confirm password': 'long-enough',
    })
    submit()
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain(MESSAGES.userExists)
    expect(within(alert).getByRole('link', { name: 'Log in instead' }).getAttribute('href')).toBe('/login')
  })

  it('takes an invitation from the link: fixed email, token sent, signed in at once', async () => {
    localStorage.setItem('returnUrl', '/circles/5')
    const fetchMock = mockApi({
      'POST /api/users/register': () =>
        json(201, {
          message: MESSAGES.registrationSuccess,
          requiresVerification: false,
          token: validToken(),
          user: testUser,
        }),
    })
    const { router } = await renderAuthPage('/register?invitation_token=tok123&email=invited%40example.com')
    expect(await screen.findByText("You've been invited to a circle")).toBeTruthy()
    await waitFor(() => expect(field('Email').value).toBe('invited@example.com'))
    expect(field('Email').readOnly).toBe(true)
    expect(screen.getByText('This is the address your invitation was sent to.')).toBeTruthy()

    fill({ Name: 'Ina', Password: 'long-enough', 'Confirm password': 'long-enough' })
    submit()
    await waitFor(() => expect(router.location.pathname).toBe('/circles/5'))
    expect(localStorage.getItem('returnUrl')).toBeNull()
    expect(getSession().token).not.toBeNull()
    expect(sentBodies(fetchMock, 'POST /api/users/register')[0]).toMatchObject({ invitationToken: 'tok123' })
  })

  it('forgets a dead invitation', async () => {
    localStorage.setItem('pending_invitation_token', 'tok123')
    localStorage.setItem('invitation_email', 'invited@example.com')
    mockApi({
      'POST /api/users/register': () =>
        json(400, { message: MESSAGES.invalidInvitation, code: 'INVALID_INVITATION' }),
    })
    await renderAuthPage('/register?token=tok123')
    await screen.findByRole('heading', { level: 1 })
    fill({
      Name: 'Ina',
      Email: 'ina@example.com',
      Password: 'long-enough',
      'Confirm password': 'long-enough',
    })
    submit()
    expect((await screen.findByRole('alert')).textContent).toBe(MESSAGES.invalidInvitation)
    expect(localStorage.getItem('pending_invitation_token')).toBeNull()
    expect(localStorage.getItem('invitation_email')).toBeNull()
  })

  it('sends the chosen language, so the verification email is German too', async () => {
    const fetchMock = mockApi({
      'POST /api/users/register': () =>
        json(201, { message: MESSAGES.registrationNeedsVerification, requiresVerification: true }),
    })
    await renderAuthPage('/register', 'de')
    await screen.findByRole('heading', { level: 1, name: 'Erstelle dein Konto' })
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Jörg' } })
    fireEvent.change(screen.getByLabelText('E-Mail-Adresse'), { target: { value: 'jo@example.de' } })
    fireEvent.change(screen.getByLabelText('Passwort'), { target: { value: 'lang-genug' } })
    fireEvent.change(screen.getByLabelText('Passwort bestätigen'), { target: { value: 'lang-genug' } })
    fireEvent.click(screen.getByRole('button', { name: 'Konto erstellen' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Schau in dein Postfach' })).toBeTruthy()
    expect(sentBodies(fetchMock, 'POST /api/users/register')[0]).toMatchObject({ language: 'de' })
  })
})
