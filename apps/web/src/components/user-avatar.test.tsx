import { waitFor } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startSession } from '@/lib/session'
import { json, mockApi } from '@/test/mock-api'
import { renderPages } from '@/test/render-pages'
import { testUser, validToken } from '@/test/tokens'
import { UserAvatar } from './user-avatar'

const AVATAR = `/api/users/avatars/${'b'.repeat(32)}.webp`

beforeEach(() => {
  startSession(validToken(), testUser)
  URL.createObjectURL = vi.fn(() => 'blob:avatar')
  URL.revokeObjectURL = vi.fn()
})
afterEach(() => vi.unstubAllGlobals())

describe('UserAvatar', () => {
  it('shows the picture, fetched with the session', async () => {
    const fetchMock = mockApi({
      [`GET ${AVATAR}`]: () => new Response(new Blob(['x'], { type: 'image/webp' })),
    })
    const { container } = await renderPages(
      { '/': () => <UserAvatar name="Ada Lovelace" avatarUrl={AVATAR} /> },
      '/',
    )
    await waitFor(() => expect(container.querySelector('img[data-avatar="picture"]')).toBeTruthy())
    const headers = new Headers(fetchMock.mock.calls[0]![1]!.headers)
    expect(headers.get('authorization')).toMatch(/^Bearer /)
  })

  it('falls back to the initials without a picture, and when the picture cannot be fetched', async () => {
    const fetchMock = mockApi({ [`GET ${AVATAR}`]: () => json(404, { message: 'Not found' }) })
    const none = await renderPages({ '/': () => <UserAvatar name="Ada Lovelace" /> }, '/')
    expect(none.container.querySelector('[data-avatar="initials"]')?.textContent).toBe('AL')
    none.unmount()
    const failed = await renderPages(
      { '/': () => <UserAvatar name="Ada Lovelace" avatarUrl={AVATAR} /> },
      '/',
    )
    await waitFor(() => expect(fetchMock).toHaveBeenCalled())
    expect(failed.container.querySelector('[data-avatar="picture"]')).toBeNull()
    expect(failed.container.querySelector('[data-avatar="initials"]')?.textContent).toBe('AL')
  })
})
