import { MESSAGES } from '@circles/shared'
import { fireEvent, screen, waitFor } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { getSession, startSession } from '@/lib/session'
import { callCount, json, mockApi, sentBodies } from '@/test/mock-api'
import { renderPages } from '@/test/render-pages'
import { testUser, validToken } from '@/test/tokens'
import { SecurityAccess } from './security-access'

const PUT = 'PUT /api/users/me/password'
const NEW_TOKEN = validToken({ sv: 2 })
let oldToken: string

const render = (language: 'en' | 'de' = 'en') =>
  renderPages({ '/profile': () => <SecurityAccess user={testUser} /> }, '/profile', {
    namespaces: ['profile'],
    language,
  })

beforeEach(() => {
  oldToken = validToken({ sv: 1 })
  startSession(oldToken, testUser)
})
afterEach(() => vi.unstubAllGlobals())
vi.setConfig({ testTimeout: 20_000 })

const field = (name: string) => screen.getByLabelText(name) as HTMLInputElement
function fill(current: string, next: string, confirm: string) {
  fireEvent.change(field('Current password'), { target: { value: current } })
  fireEvent.change(field('New password'), { target: { value: next } })
  fireEvent.change(field('Confirm new password'), { target: { value: confirm } })
}
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }))
const description = (label: string) =>
  (field(label).getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent)
    .join(' ')
/** Lets every request that would go out go out. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 20))

async function openForm() {
  fireEvent.click(await screen.findByRole('button', { name: 'Change password' }))
  await screen.findByRole('heading', { name: 'Change your password' })
}

describe('change password in Security & Access', () => {
  it('keeps the masked row, and opens an inline form for password managers', async () => {
    mockApi({})
    await render()
    expect(screen.getByLabelText('Password, hidden').textContent).toBe('••••••••')
    await openForm()
    expect(screen.queryByRole('button', { name: 'Change password' })).toBeNull()
    await waitFor(() => expect(document.activeElement).toBe(field('Current password')))
    expect(field('Current password').autocomplete).toBe('current-password')
    expect(field('New password').autocomplete).toBe('new-password')
    expect(field('Confirm new password').autocomplete).toBe('new-password')
    for (const input of [field('Current password'), field('New password'), field('Confirm new password')])
      expect(input.type).toBe('password')
    // Each has its own show/hide toggle.
    const toggles = screen.getAllByRole('button', { name: 'Show password' })
    expect(toggles).toHaveLength(3)
    fireEvent.click(toggles[1]!)
    expect(field('New password').type).toBe('text')
    expect(field('Current password').type).toBe('password')
  })

  it("checks the fields in order with the spec's reset messages, before sending anything", async () => {
    const fetchMock = mockApi({})
    await render()
    await openForm()
    save()
    await waitFor(() => expect(description('Current password')).toContain(MESSAGES.currentPasswordRequired))
    fill('old password', '', '')
    save()
    await waitFor(() => expect(description('New password')).toContain(MESSAGES.resetBothRequired))
    fill('old password', 'short', 'short')
    save()
    await waitFor(() => expect(description('New password')).toContain(MESSAGES.resetPasswordMin))
    fill('old password', 'long enough', 'long enougx')
    save()
    await waitFor(() =>
      expect(description('Confirm new password')).toContain(MESSAGES.resetPasswordsDoNotMatch),
    )
    fill('old password', 'old password', 'old password')
    save()
    await waitFor(() => expect(description('New password')).toContain(MESSAGES.passwordSameAsCurrent))
    await settle()
    expect(callCount(fetchMock, PUT)).toBe(0)
  })

  it('changes it, keeps this tab signed in with the new token, and says so', async () => {
    const fetchMock = mockApi({
      [PUT]: () => json(200, { message: MESSAGES.passwordChanged, token: NEW_TOKEN }),
    })
    await render()
    await openForm()
    fill('old password', 'a new password', 'a new password')
    save()
    expect(await screen.findByText(MESSAGES.passwordChanged)).toBeTruthy()
    expect(sentBodies(fetchMock, PUT)).toEqual([
      { currentPassword: 'old password', newPassword: 'a new password', confirmPassword: 'a new password' },
    ])
    expect(getSession()).toEqual({ token: NEW_TOKEN, user: testUser })
    expect(localStorage.getItem('token')).toBe(NEW_TOKEN)
    expect(screen.queryByRole('heading', { name: 'Change your password' })).toBeNull()
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Change password' })),
    )
  })

  it('shows a wrong current password at its field and stays signed in', async () => {
    mockApi({
      [PUT]: () =>
        json(400, {
          message: MESSAGES.currentPasswordWrong,
          code: 'VALIDATION_ERROR',
          key: 'currentPasswordWrong',
          field: 'currentPassword',
        }),
    })
    await render()
    await openForm()
    fill('not my password', 'a new password', 'a new password')
    save()
    await waitFor(() => expect(description('Current password')).toContain(MESSAGES.currentPasswordWrong))
    expect(field('Current password').getAttribute('aria-invalid')).toBe('true')
    await waitFor(() => expect(document.activeElement).toBe(field('Current password')))
    await settle()
    expect(getSession().token).toBe(oldToken)
  })

  it('shows any other failure in the form, e.g. too many guesses', async () => {
    mockApi({
      [PUT]: () =>
        json(429, {
          message: MESSAGES.tooManyRequests,
          code: 'RATE_LIMITED',
          key: 'tooManyRequests',
          retryAfter: 2,
        }),
    })
    await render()
    await openForm()
    fill('not my password', 'a new password', 'a new password')
    save()
    expect((await screen.findByRole('alert')).textContent).toContain(MESSAGES.tooManyRequests)
  })

  it('Cancel closes the form without a request and gives the button the focus back', async () => {
    const fetchMock = mockApi({})
    await render()
    await openForm()
    fill('old password', 'a new password', 'a new password')
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('heading', { name: 'Change your password' })).toBeNull()
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Change password' })),
    )
    // Opened again, it starts empty.
    await openForm()
    expect(field('Current password').value).toBe('')
    expect(callCount(fetchMock, PUT)).toBe(0)
  })

  it('a double submit sends one request (issue 23)', async () => {
    const fetchMock = mockApi({
      [PUT]: () => json(200, { message: MESSAGES.passwordChanged, token: NEW_TOKEN }),
    })
    await render()
    await openForm()
    fill('old password', 'a new password', 'a new password')
    const form = screen.getByRole('button', { name: 'Save' }).closest('form')!
    fireEvent.submit(form)
    fireEvent.submit(form)
    await waitFor(() => expect(callCount(fetchMock, PUT)).toBe(1))
    await settle()
    expect(callCount(fetchMock, PUT)).toBe(1)
  })

  it('speaks German', async () => {
    mockApi({})
    await render('de')
    fireEvent.click(await screen.findByRole('button', { name: 'Passwort ändern' }))
    await screen.findByRole('heading', { name: 'Ändere dein Passwort' })
    expect(screen.getByLabelText('Aktuelles Passwort')).toBeTruthy()
    expect(screen.getByLabelText('Neues Passwort')).toBeTruthy()
    expect(screen.getByLabelText('Neues Passwort bestätigen')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Speichern' }))
    await waitFor(() =>
      expect(
        screen.getByLabelText('Aktuelles Passwort').getAttribute('aria-describedby') &&
          document.body.textContent,
      ).toContain('Bitte gib dein aktuelles Passwort ein'),
    )
  })
})
