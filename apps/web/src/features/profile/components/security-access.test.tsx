import { fireEvent, screen, within } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { notify } from '@/lib/notify'
import { startSession } from '@/lib/session'
import { json, mockApi } from '@/test/mock-api'
import { renderPages } from '@/test/render-pages'
import { testUser, validToken } from '@/test/tokens'
import { SecurityAccess } from './security-access'

// The browser's WebAuthn prompt; everything else runs for real.
const { startRegistration } = vi.hoisted(() => ({ startRegistration: vi.fn() }))
vi.mock('@simplewebauthn/browser', () => ({ startRegistration }))

const OPTIONS = {
  challenge: 'c2VydmVyLWNoYWxsZW5nZQ',
  pubKeyCredParams: [
    { type: 'public-key', alg: -8 },
    { type: 'public-key', alg: -7 },
  ],
}
const PASSKEY = {
  id: 'cred-1',
  credentialDeviceType: 'multiDevice',
  credentialBackedUp: true,
  createdAt: '2026-01-05T10:00:00.000Z',
  name: 'Google Password Manager',
  lastUsedAt: null,
}

const render = () =>
  renderPages({ '/profile': () => <SecurityAccess user={testUser} /> }, '/profile', {
    namespaces: ['profile'],
  })
const toasts = () => within(screen.getByRole('region', { name: /notifications/i }))
const domError = (name: string) => Object.assign(new Error('from the browser'), { name })

beforeEach(() => {
  startSession(validToken(), testUser)
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {})
  Object.defineProperty(navigator, 'credentials', { value: {}, configurable: true })
})
afterEach(() => {
  vi.unstubAllGlobals()
  Reflect.deleteProperty(navigator, 'credentials')
  startRegistration.mockReset()
  // sonner keeps its toasts between tests; the next test's Toaster would show them again.
  notify.dismiss()
})

describe('passkey registration failures (spec 001 §7, §8)', () => {
  it.each([
    ['NotAllowedError', 'Registration was canceled or timed out. Please try again.'],
    ['AbortError', 'Registration was canceled or timed out. Please try again.'],
    ['SecurityError', "Registration failed due to security restrictions. Make sure you're using HTTPS."],
  ])('a %s from the browser says %j', async (name, text) => {
    mockApi({
      'GET /api/webauthn/credentials': () => json(200, { credentials: [] }),
      'GET /api/webauthn/register/options': () => json(200, OPTIONS),
    })
    startRegistration.mockRejectedValue(domError(name))
    await render()
    fireEvent.click(await screen.findByRole('button', { name: 'Register a passkey' }))
    expect(await toasts().findByText(text)).toBeTruthy()
    expect(startRegistration).toHaveBeenCalledOnce()
  })

  it('refuses options without a challenge before the browser is asked', async () => {
    mockApi({
      'GET /api/webauthn/credentials': () => json(200, { credentials: [] }),
      'GET /api/webauthn/register/options': () => json(200, { pubKeyCredParams: OPTIONS.pubKeyCredParams }),
    })
    await render()
    fireEvent.click(await screen.findByRole('button', { name: 'Register a passkey' }))
    expect(await toasts().findByText('Invalid registration options received from server')).toBeTruthy()
    expect(startRegistration).not.toHaveBeenCalled()
  })

  it('gives the generic text when the verification fails without a message', async () => {
    mockApi({
      'GET /api/webauthn/credentials': () => json(200, { credentials: [] }),
      'GET /api/webauthn/register/options': () => json(200, OPTIONS),
      'POST /api/webauthn/register/verify': () => json(500),
    })
    startRegistration.mockResolvedValue({ id: 'x', rawId: 'x', type: 'public-key', response: {} })
    await render()
    fireEvent.click(await screen.findByRole('button', { name: 'Register a passkey' }))
    expect(await toasts().findByText('Failed to register passkey. Please try again.')).toBeTruthy()
    // The browser was offered the spec's algorithms, not the server's -8.
    expect(startRegistration).toHaveBeenCalledWith({
      optionsJSON: {
        challenge: OPTIONS.challenge,
        pubKeyCredParams: [
          { type: 'public-key', alg: -7 },
          { type: 'public-key', alg: -257 },
        ],
      },
    })
  })
})

describe('the passkey list (spec 001 §8)', () => {
  it('says when it cannot be loaded', async () => {
    mockApi({ 'GET /api/webauthn/credentials': () => json(403, { message: 'Forbidden' }) })
    await render()
    expect(await screen.findByText('Failed to load your passkeys')).toBeTruthy()
  })

  it('says when a delete fails, and keeps the passkey', async () => {
    mockApi({
      'GET /api/webauthn/credentials': () => json(200, { credentials: [PASSKEY] }),
      'DELETE /api/webauthn/credentials/cred-1': () => json(500),
    })
    await render()
    const list = await screen.findByRole('list', { name: 'Passkeys' })
    fireEvent.click(within(list).getByRole('button', { name: 'Delete' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Delete passkey' }))
    expect(await toasts().findByText('Failed to delete passkey')).toBeTruthy()
    expect(screen.getByText('Google Password Manager')).toBeTruthy()
  })
})

describe('a double press sends one request (issue 23)', () => {
  it('Register a passkey: one options request, one browser prompt', async () => {
    const fetchMock = mockApi({
      'GET /api/webauthn/credentials': () => json(200, { credentials: [] }),
      'GET /api/webauthn/register/options': () => json(200, OPTIONS),
    })
    startRegistration.mockRejectedValue(domError('NotAllowedError'))
    await render()
    const button = await screen.findByRole('button', { name: 'Register a passkey' })
    fireEvent.click(button)
    fireEvent.click(button)
    expect(
      await toasts().findByText('Registration was canceled or timed out. Please try again.'),
    ).toBeTruthy()
    const asked = fetchMock.mock.calls.filter(([url]) => String(url).includes('/register/options'))
    expect(asked).toHaveLength(1)
    expect(startRegistration).toHaveBeenCalledOnce()
  })

  it('Delete passkey: one DELETE', async () => {
    const fetchMock = mockApi({
      'GET /api/webauthn/credentials': () => json(200, { credentials: [PASSKEY] }),
      'DELETE /api/webauthn/credentials/cred-1': () => json(200, { message: 'Passkey deleted' }),
    })
    await render()
    const list = await screen.findByRole('list', { name: 'Passkeys' })
    fireEvent.click(within(list).getByRole('button', { name: 'Delete' }))
    const confirm = await screen.findByRole('button', { name: 'Delete passkey' })
    fireEvent.click(confirm)
    fireEvent.click(confirm)
    await new Promise((resolve) => setTimeout(resolve, 50))
    const deletes = fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE')
    expect(deletes).toHaveLength(1)
  })
})
