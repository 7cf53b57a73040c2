import { fireEvent, screen, within } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { notify } from '@/lib/notify'
import { getSession, startSession } from '@/lib/session'
import { json, mockApi, sentBodies } from '@/test/mock-api'
import { renderPages } from '@/test/render-pages'
import { testUser, validToken } from '@/test/tokens'
import { ProfileInfo } from './profile-info'

const render = () =>
  renderPages({ '/profile': () => <ProfileInfo user={testUser} /> }, '/profile', { namespaces: ['profile'] })
const toasts = () => within(screen.getByRole('region', { name: /notifications/i }))

async function saveName(name: string) {
  fireEvent.click(await screen.findByRole('button', { name: 'Edit' }))
  fireEvent.change(screen.getByLabelText('Name'), { target: { value: name } })
  fireEvent.click(screen.getByRole('button', { name: 'Save' }))
}

beforeEach(() => startSession(validToken(), testUser))
afterEach(() => {
  vi.unstubAllGlobals()
  // sonner keeps its toasts between tests; the next test's Toaster would show them again.
  notify.dismiss()
})

describe('saving the name (spec 001 §2, §8)', () => {
  it("says 'Failed to update profile' when the answer has no message, and keeps the form", async () => {
    const fetchMock = mockApi({ 'PUT /api/users/me': () => json(500) })
    await render()
    await saveName('Anna Berg')
    expect(await toasts().findByText('Failed to update profile')).toBeTruthy()
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Anna Berg')
    expect(sentBodies(fetchMock, 'PUT /api/users/me')).toEqual([{ name: 'Anna Berg' }])
    expect(getSession().user?.name).toBe(testUser.name)
  })

  it("shows the server's message when it gives one", async () => {
    mockApi({ 'PUT /api/users/me': () => json(400, { message: 'Name must not contain links' }) })
    await render()
    await saveName('Anna Berg')
    expect(await toasts().findByText('Name must not contain links')).toBeTruthy()
    expect(toasts().queryByText('Failed to update profile')).toBeNull()
  })
})
