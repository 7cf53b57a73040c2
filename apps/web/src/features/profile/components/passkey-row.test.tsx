import { fireEvent, screen, waitFor, within } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { notify } from '@/lib/notify'
import { startSession } from '@/lib/session'
import { callCount, json, mockApi, sentBodies } from '@/test/mock-api'
import { renderPages } from '@/test/render-pages'
import { testUser, validToken } from '@/test/tokens'
import { SecurityAccess } from './security-access'

// Issue 24: named passkeys on the 'Security & Access' tab, against a mocked API.
vi.setConfig({ testTimeout: 20_000 })

const PASSKEY = {
  id: 'cred-1',
  credentialDeviceType: 'singleDevice',
  credentialBackedUp: false,
  createdAt: '2026-01-05T10:00:00.000Z',
  name: 'Chrome on Linux',
  lastUsedAt: '2026-02-10T09:30:00.000Z',
}
const URL = 'PATCH /api/webauthn/credentials/cred-1'

const render = (language?: 'en' | 'de') =>
  renderPages({ '/profile': () => <SecurityAccess user={testUser} /> }, '/profile', {
    namespaces: ['profile'],
    ...(language && { language }),
  })
const toasts = () => within(screen.getByRole('region', { name: /notifications|benachrichtigungen/i }))

/** A list whose GET follows the last successful rename, as the server's would. */
function api(answer?: (body: { name: string }) => Response) {
  let current = PASSKEY
  const renamed = (name: string) => {
    current = { ...PASSKEY, name }
    return json(200, { credential: current, message: 'Passkey renamed' })
  }
  return mockApi({
    'GET /api/webauthn/credentials': () => json(200, { credentials: [current] }),
    [URL]: (body) => (answer ?? ((b) => renamed(b.name)))(body as { name: string }),
  })
}

beforeEach(() => {
  startSession(validToken(), testUser)
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {})
  Object.defineProperty(navigator, 'credentials', { value: {}, configurable: true })
})
afterEach(() => {
  vi.unstubAllGlobals()
  Reflect.deleteProperty(navigator, 'credentials')
  notify.dismiss()
})

async function openRename() {
  const list = await screen.findByRole('list', { name: 'Passkeys' })
  fireEvent.click(within(list).getByRole('button', { name: 'Rename' }))
  return screen.getByRole('textbox', { name: 'Passkey name' }) as HTMLInputElement
}

describe('the passkey list shows names (issue 24)', () => {
  it('shows the name, the kind, where it lives, when registered and last used', async () => {
    api()
    await render()
    const list = await screen.findByRole('list', { name: 'Passkeys' })
    expect(within(list).getByText('Chrome on Linux')).toBeTruthy()
    expect(within(list).getByText('Single-device passkey · only on this device')).toBeTruthy()
    expect(within(list).getByText(/^Registered on Jan 5, 2026 · last used Feb 10, 2026$/)).toBeTruthy()
    // Each row's buttons are described by the passkey's name for screen readers.
    const rename = within(list).getByRole('button', { name: 'Rename' })
    expect(rename.getAttribute('aria-describedby')).toBe(within(list).getByText('Chrome on Linux').id)
  })

  it("says 'not used yet' for a passkey that never signed in", async () => {
    mockApi({
      'GET /api/webauthn/credentials': () => json(200, { credentials: [{ ...PASSKEY, lastUsedAt: null }] }),
    })
    await render()
    expect(await screen.findByText(/· not used yet$/)).toBeTruthy()
  })
})

describe('renaming a passkey', () => {
  it('saves the trimmed name, says so, and returns focus to Rename', async () => {
    const fetchMock = api()
    await render()
    const input = await openRename()
    expect(document.activeElement).toBe(input)
    expect(input.value).toBe('Chrome on Linux')
    fireEvent.change(input, { target: { value: '  Work laptop ' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await toasts().findByText('Passkey renamed')).toBeTruthy()
    expect(sentBodies(fetchMock, URL)).toEqual([{ name: 'Work laptop' }])
    expect(await screen.findByText('Work laptop')).toBeTruthy()
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Rename'))
  })

  it('Cancel and Escape leave the name as it was, without a request', async () => {
    const fetchMock = api()
    await render()
    let input = await openRename()
    fireEvent.change(input, { target: { value: 'Something else' } })
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(screen.getByText('Chrome on Linux')).toBeTruthy()
    input = await openRename()
    expect(input.value).toBe('Chrome on Linux')
    fireEvent.change(input, { target: { value: 'Other' } })
    fireEvent.keyDown(input, { key: 'Escape' })
    expect(screen.queryByRole('textbox', { name: 'Passkey name' })).toBeNull()
    expect(screen.getByText('Chrome on Linux')).toBeTruthy()
    expect(callCount(fetchMock, URL)).toBe(0)
  })

  it('refuses an empty and a too long name in the field, without a request', async () => {
    const fetchMock = api()
    await render()
    const input = await openRename()
    fireEvent.change(input, { target: { value: '   ' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Please enter a name for the passkey')).toBeTruthy()
    expect(input.getAttribute('aria-invalid')).toBe('true')
    fireEvent.change(input, { target: { value: 'x'.repeat(61) } })
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('A passkey name can have at most 60 characters')).toBeTruthy()
    expect(callCount(fetchMock, URL)).toBe(0)
  })

  it("shows the server's refusal under the field (a passkey deleted elsewhere)", async () => {
    api(() => json(404, { code: 'NOT_FOUND', message: 'Passkey not found', key: 'passkeyNotFound' }))
    await render()
    const input = await openRename()
    fireEvent.change(input, { target: { value: 'Phone' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Passkey not found')).toBeTruthy()
    expect(screen.getByRole('textbox', { name: 'Passkey name' })).toBeTruthy()
  })

  it('a double press on Save sends one request', async () => {
    const fetchMock = api()
    await render()
    const input = await openRename()
    fireEvent.change(input, { target: { value: 'Phone' } })
    const form = input.closest('form')!
    fireEvent.submit(form)
    fireEvent.submit(form)
    await waitFor(() => expect(callCount(fetchMock, URL)).toBe(1))
    await new Promise((resolve) => setTimeout(resolve, 30))
    expect(callCount(fetchMock, URL)).toBe(1)
  })

  it('speaks German', async () => {
    api()
    await render('de')
    const list = await screen.findByRole('list', { name: 'Passkeys' })
    expect(within(list).getByText(/· zuletzt benutzt am /)).toBeTruthy()
    fireEvent.click(within(list).getByRole('button', { name: 'Umbenennen' }))
    const input = screen.getByRole('textbox', { name: 'Name des Passkeys' })
    fireEvent.change(input, { target: { value: '' } })
    fireEvent.click(screen.getByRole('button', { name: 'Speichern' }))
    expect(await screen.findByText('Bitte gib einen Namen für den Passkey ein')).toBeTruthy()
  })
})
