import { MESSAGES, type TUser } from '@circles/shared'
import { fireEvent, screen, waitFor } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { getSession, startSession } from '@/lib/session'
import { useSession } from '@/lib/use-session'
import { callCount, json, mockApi } from '@/test/mock-api'
import { renderPages } from '@/test/render-pages'
import { testUser, validToken } from '@/test/tokens'
import { AvatarPicture } from './avatar-picture'

vi.setConfig({ testTimeout: 20_000 })

const AVATAR = `/api/users/avatars/${'a'.repeat(32)}.webp`
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d])

/** XMLHttpRequest as the upload uses it: each request waits until the test answers it. */
class FakeXhr {
  static requests: FakeXhr[] = []
  method = ''
  url = ''
  status = 0
  responseText = ''
  timeout = 0
  body: FormData | null = null
  upload: { onprogress: ((event: Partial<ProgressEvent>) => void) | null } = { onprogress: null }
  onload: (() => void) | null = null
  onerror: (() => void) | null = null
  ontimeout: (() => void) | null = null
  open(method: string, url: string) {
    this.method = method
    this.url = url
  }
  setRequestHeader() {}
  send(body: FormData) {
    this.body = body
    FakeXhr.requests.push(this)
  }
  progress(loaded: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total: 100 })
  }
  respond(status: number, body: unknown) {
    this.status = status
    this.responseText = JSON.stringify(body)
    this.onload?.()
  }
}

function Current() {
  const { user } = useSession()
  return user ? <AvatarPicture user={user} /> : null
}

async function show(user: TUser = testUser) {
  startSession(validToken(), user)
  await renderPages({ '/': Current }, '/', { namespaces: ['profile'] })
}

const picked = (bytes: Uint8Array<ArrayBuffer> = PNG, name = 'me.png', type = 'image/png') =>
  new File([bytes], name, { type })
const choose = (file: File) =>
  fireEvent.change(screen.getByLabelText(/Add picture|Change picture/), { target: { files: [file] } })
/** Lets every request that would go out go out. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 20))

beforeEach(() => {
  FakeXhr.requests = []
  vi.stubGlobal('XMLHttpRequest', FakeXhr)
  URL.createObjectURL = vi.fn(() => 'blob:picture')
  URL.revokeObjectURL = vi.fn()
})
afterEach(() => vi.unstubAllGlobals())

describe('AvatarPicture', () => {
  it('uploads a picked picture with its progress and a preview; the session user gets its URL', async () => {
    mockApi({ [`GET ${AVATAR}`]: () => new Response(new Blob([PNG], { type: 'image/webp' })) })
    await show()
    expect(screen.getByRole('img', { name: 'No profile picture: your initials are shown' }).textContent).toBe(
      'AK',
    )
    choose(picked())
    await waitFor(() => expect(FakeXhr.requests).toHaveLength(1))
    const request = FakeXhr.requests[0]!
    expect([request.method, request.url]).toEqual(['PUT', '/api/users/me/avatar'])
    expect((request.body!.get('image') as File).name).toBe('me.png')
    expect(await screen.findByAltText('The picture being uploaded')).toBeTruthy()
    request.progress(40)
    expect(await screen.findByLabelText('Uploading picture: 40 %')).toBeTruthy()

    request.respond(200, { user: { ...testUser, avatarUrl: AVATAR }, message: MESSAGES.avatarUpdated })
    expect(await screen.findByText('Profile picture updated')).toBeTruthy()
    expect(getSession().user?.avatarUrl).toBe(AVATAR)
    await waitFor(() => expect(document.querySelector('[data-avatar="picture"]')).toBeTruthy())
    expect(screen.getByLabelText('Change picture')).toBeTruthy()
    expect(screen.queryByRole('progressbar')).toBeNull()
  })

  it('refuses a non-image and a text file named .jpg at the pick, and a picture over 5 MB; nothing is sent', async () => {
    mockApi({})
    await show()
    choose(picked(new TextEncoder().encode('notes'), 'notes.txt', 'text/plain'))
    expect(await screen.findByText('Please select an image file.')).toBeTruthy()
    choose(picked(new TextEncoder().encode('just some notes, not a photo'), 'notes.jpg', 'image/jpeg'))
    expect(await screen.findByText(MESSAGES.invalidImageType)).toBeTruthy()
    const big = picked(new Uint8Array(5 * 1024 * 1024 + 1))
    choose(big)
    expect(await screen.findByText('File is too large. Maximum size is 5MB.')).toBeTruthy()
    await settle()
    expect(FakeXhr.requests).toHaveLength(0)
  })

  it("shows the server's refusal in the user's language", async () => {
    mockApi({})
    await show({ ...testUser, language: 'en' })
    choose(picked())
    await waitFor(() => expect(FakeXhr.requests).toHaveLength(1))
    FakeXhr.requests[0]!.respond(400, { message: MESSAGES.invalidImageType, key: 'invalidImageType' })
    expect(await screen.findByRole('alert')).toBeTruthy()
    expect(screen.getByRole('alert').textContent).toContain(MESSAGES.invalidImageType)
    expect(getSession().user?.avatarUrl).toBeUndefined()
  })

  it('removes the picture: initials again', async () => {
    const fetchMock = mockApi({
      [`GET ${AVATAR}`]: () => new Response(new Blob([PNG], { type: 'image/webp' })),
      'DELETE /api/users/me/avatar': () =>
        json(200, { user: { ...testUser, avatarUrl: null }, message: MESSAGES.avatarRemoved }),
    })
    await show({ ...testUser, avatarUrl: AVATAR })
    fireEvent.click(await screen.findByRole('button', { name: 'Remove picture' }))
    expect(await screen.findByText('Profile picture removed')).toBeTruthy()
    expect(getSession().user?.avatarUrl).toBeNull()
    expect(screen.getByRole('img', { name: 'No profile picture: your initials are shown' })).toBeTruthy()
    expect(callCount(fetchMock, 'DELETE /api/users/me/avatar')).toBe(1)
  })
})

describe('a double press sends one request (issue 23)', () => {
  it('two picks in a row upload once', async () => {
    mockApi({})
    await show()
    choose(picked())
    choose(picked())
    await waitFor(() => expect(FakeXhr.requests).toHaveLength(1))
    await settle()
    expect(FakeXhr.requests).toHaveLength(1)
  })

  it('Remove pressed twice', async () => {
    const fetchMock = mockApi({
      [`GET ${AVATAR}`]: () => new Response(new Blob([PNG], { type: 'image/webp' })),
      'DELETE /api/users/me/avatar': () =>
        json(200, { user: { ...testUser, avatarUrl: null }, message: MESSAGES.avatarRemoved }),
    })
    await show({ ...testUser, avatarUrl: AVATAR })
    const button = await screen.findByRole('button', { name: 'Remove picture' })
    fireEvent.click(button)
    fireEvent.click(button)
    await waitFor(() => expect(callCount(fetchMock, 'DELETE /api/users/me/avatar')).toBe(1))
    await settle()
    expect(callCount(fetchMock, 'DELETE /api/users/me/avatar')).toBe(1)
  })
})
