import { fireEvent, screen, waitFor } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { notify } from '@/lib/notify'
import { startSession } from '@/lib/session'
import { callCount, json, mockApi } from '@/test/mock-api'
import { renderPages } from '@/test/render-pages'
import { testUser, validToken } from '@/test/tokens'
import { NoticePreferences } from './components/notice-preferences'
import { ProfileInfo } from './components/profile-info'
import { UnsubscribePage } from './routes/unsubscribe-page'

beforeEach(() => startSession(validToken(), testUser))
// Several screens per test: room for a busy machine.
vi.setConfig({ testTimeout: 20_000 })

afterEach(() => {
  vi.unstubAllGlobals()
  notify.dismiss()
})

function submitTwice(button: HTMLElement) {
  const form = button.closest('form')!
  fireEvent.submit(form)
  fireEvent.submit(form)
}
/** Lets every request that would go out go out. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 20))

describe('a double submit sends one request (issue 23)', () => {
  it('Save the name', async () => {
    const fetchMock = mockApi({
      'PUT /api/users/me': () => json(200, { user: { ...testUser, name: 'Anna Berg' } }),
    })
    await renderPages({ '/': () => <ProfileInfo user={testUser} /> }, '/', { namespaces: ['profile'] })
    fireEvent.click(await screen.findByRole('button', { name: 'Edit' }))
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Anna Berg' } })
    submitTwice(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(callCount(fetchMock, 'PUT /api/users/me')).toBe(1))
    await settle()
    expect(callCount(fetchMock, 'PUT /api/users/me')).toBe(1)
  })

  it('Save the notice preferences', async () => {
    const notices = {
      handoverRequests: true,
      handoverAnswers: false,
      invitations: true,
      loanReminders: true,
      borrowRequests: true,
      loanChanges: true,
      push: { handoverRequests: true, handoverAnswers: true, invitations: true, loanReminders: true },
    }
    const fetchMock = mockApi({
      'GET /api/users/me/notifications': () => json(200, { notices }),
      'PUT /api/users/me/notifications': () => json(200, { notices }),
    })
    await renderPages({ '/': () => <NoticePreferences /> }, '/', { namespaces: ['profile'] })
    submitTwice(await screen.findByRole('button', { name: 'Save preferences' }))
    await waitFor(() => expect(callCount(fetchMock, 'PUT /api/users/me/notifications')).toBe(1))
    await settle()
    expect(callCount(fetchMock, 'PUT /api/users/me/notifications')).toBe(1)
  })

  it('Unsubscribe', async () => {
    const fetchMock = mockApi({
      'POST /api/users/unsubscribe': () => json(200, { message: 'You will no longer receive these emails.' }),
    })
    await renderPages({ '/unsubscribe': UnsubscribePage }, '/unsubscribe?token=tok', {
      namespaces: ['profile'],
    })
    const button = await screen.findByRole('button', { name: 'Unsubscribe' })
    fireEvent.click(button)
    fireEvent.click(button)
    expect(await screen.findByText('You will no longer receive these emails.')).toBeTruthy()
    await settle()
    expect(callCount(fetchMock, 'POST /api/users/unsubscribe')).toBe(1)
  })
})
