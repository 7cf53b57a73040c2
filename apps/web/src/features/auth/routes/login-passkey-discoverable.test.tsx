import { act, fireEvent, screen, waitFor, within } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { notify } from '@/lib/notify'
import { getSession } from '@/lib/session'
import { testUser, validToken } from '@/test/tokens'
import { callCount } from '@/test/mock-api'
import { json, mockApi, renderAuthPage, sentBodies } from '../test/render-auth-page'

// Issue 24: sign in with a passkey without typing the email, and passkey autofill. The browser's
// WebAuthn prompt (@simplewebauthn/browser) is the only stand-in; the page, its hooks and the API
// client run for real against a mocked fetch.
const browser = vi.hoisted(() => ({
  startAuthentication: vi.fn(),
  browserSupportsWebAuthnAutofill: vi.fn(),
  WebAuthnAbortService: { cancelCeremony: vi.fn(), createNewAbortSignal: vi.fn() },
}))
vi.mock('@simplewebauthn/browser', () => browser)
vi.setConfig({ testTimeout: 20_000 })

const OPTIONS = { options: { challenge: 'Y2hhbGxlbmdl', userVerification: 'required' } }
const CREDENTIAL = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: {} }
const SESSION = { token: validToken(), user: testUser }
const domError = (name: string, message = 'from the browser') => Object.assign(new Error(message), { name })
const toasts = () => within(screen.getByRole('region', { name: /notifications|benachrichtigungen/i }))

/** A prompt that stays open until the test settles it, as the browser's autofill request does. */
function pendingPrompt() {
  let settle!: { resolve(value: unknown): void; reject(error: unknown): void }
  const promise = new Promise((resolve, reject) => {
    settle = { resolve, reject }
  })
  return { promise, ...settle }
}

const api = (verify = () => json(200, SESSION)) =>
  mockApi({
    'POST /api/webauthn/login/options': () => json(200, OPTIONS),
    'POST /api/webauthn/login/verify': verify,
  })

beforeEach(() => {
  // Here, not after each: the previous test's page is unmounted after its afterEach hooks.
  browser.startAuthentication.mockReset()
  browser.browserSupportsWebAuthnAutofill.mockReset()
  browser.WebAuthnAbortService.cancelCeremony.mockReset()
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {})
  Object.defineProperty(navigator, 'credentials', { value: { get: vi.fn() }, configurable: true })
  browser.browserSupportsWebAuthnAutofill.mockResolvedValue(false)
})
afterEach(() => {
  vi.unstubAllGlobals()
  Reflect.deleteProperty(navigator, 'credentials')
  notify.dismiss()
})

describe("'Sign in with a passkey' without an email", () => {
  it('asks for options without an email, lets the browser offer its passkeys, and signs in', async () => {
    const fetchMock = api()
    browser.startAuthentication.mockResolvedValue(CREDENTIAL)
    const { router } = await renderAuthPage('/login')
    const button = await screen.findByRole('button', { name: 'Sign in with a passkey' })
    expect(button.getAttribute('aria-describedby')).toBeTruthy()
    fireEvent.click(button)
    await waitFor(() => expect(router.location.pathname).toBe('/dashboard'))
    expect(sentBodies(fetchMock, 'POST /api/webauthn/login/options')).toEqual([{}])
    expect(browser.startAuthentication).toHaveBeenCalledWith({ optionsJSON: OPTIONS.options })
    expect(sentBodies(fetchMock, 'POST /api/webauthn/login/verify')).toEqual([{ credential: CREDENTIAL }])
    expect(getSession().user?.id).toBe(testUser.id)
  })

  it('keeps the spec\'s email-first path: "Use a passkey" still needs the email', async () => {
    const fetchMock = api()
    await renderAuthPage('/login')
    fireEvent.click(await screen.findByRole('button', { name: 'Use a passkey' }))
    expect(await toasts().findByText('Email is required to use passkey authentication.')).toBeTruthy()
    expect(callCount(fetchMock, 'POST /api/webauthn/login/options')).toBe(0)
  })

  it.each([
    [
      'no passkey on this device',
      domError('NotAllowedError', 'The operation either timed out or was not allowed.'),
      'No passkeys found for this account on this device. Please try using the device where you registered your passkey, or register a new passkey on this device.',
    ],
    [
      'cancelled',
      domError('NotAllowedError', 'The user cancelled the request'),
      'Authentication was cancelled. Please try again.',
    ],
  ])('says so when %s', async (_case, error, text) => {
    const fetchMock = api()
    browser.startAuthentication.mockRejectedValue(error)
    await renderAuthPage('/login')
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }))
    expect(await toasts().findByText(text)).toBeTruthy()
    expect(callCount(fetchMock, 'POST /api/webauthn/login/verify')).toBe(0)
  })

  it("says 'Passkey authentication failed' for a passkey the server does not know", async () => {
    api(() =>
      json(401, {
        code: 'UNAUTHORIZED',
        message: 'Passkey authentication failed',
        key: 'passkeyAuthenticationFailed',
      }),
    )
    browser.startAuthentication.mockResolvedValue(CREDENTIAL)
    const { router } = await renderAuthPage('/login')
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }))
    expect(await toasts().findByText('Passkey authentication failed')).toBeTruthy()
    expect(router.location.pathname).toBe('/login')
    expect(getSession().token).toBeFalsy()
  })

  it('a double press asks the browser once', async () => {
    const fetchMock = api()
    const prompt = pendingPrompt()
    browser.startAuthentication.mockReturnValue(prompt.promise)
    await renderAuthPage('/login')
    const button = await screen.findByRole('button', { name: 'Sign in with a passkey' })
    fireEvent.click(button)
    fireEvent.click(button)
    await waitFor(() => expect(browser.startAuthentication).toHaveBeenCalledOnce())
    await new Promise((resolve) => setTimeout(resolve, 30))
    expect(callCount(fetchMock, 'POST /api/webauthn/login/options')).toBe(1)
    await act(async () => prompt.reject(domError('NotAllowedError')))
  })

  it('speaks German', async () => {
    api()
    browser.startAuthentication.mockRejectedValue(domError('NotAllowedError', 'cancelled by the user'))
    await renderAuthPage('/login', 'de')
    const button = await screen.findByRole('button', { name: 'Mit einem Passkey anmelden' })
    expect(screen.getByText(/Ohne E-Mail-Adresse: Dein Gerät zeigt dir die Passkeys/)).toBeTruthy()
    fireEvent.click(button)
    expect(
      await toasts().findByText('Die Anmeldung wurde abgebrochen. Bitte versuch es noch einmal.'),
    ).toBeTruthy()
  })
})

describe('passkey autofill', () => {
  it('marks the email field for passkey autofill', async () => {
    await renderAuthPage('/login')
    const email = await screen.findByLabelText('Email')
    expect(email.getAttribute('autocomplete')).toBe('username webauthn')
  })

  it('asks for nothing when the browser has no conditional mediation', async () => {
    const fetchMock = api()
    await renderAuthPage('/login')
    await screen.findByRole('button', { name: 'Sign in with a passkey' })
    await waitFor(() => expect(browser.browserSupportsWebAuthnAutofill).toHaveBeenCalled())
    await new Promise((resolve) => setTimeout(resolve, 30))
    expect(callCount(fetchMock, 'POST /api/webauthn/login/options')).toBe(0)
    expect(browser.startAuthentication).not.toHaveBeenCalled()
  })

  it('keeps a conditional request open and signs in with the passkey picked from the autofill', async () => {
    browser.browserSupportsWebAuthnAutofill.mockResolvedValue(true)
    const fetchMock = api()
    const prompt = pendingPrompt()
    browser.startAuthentication.mockReturnValue(prompt.promise)
    const { router } = await renderAuthPage('/login')
    await waitFor(() =>
      expect(browser.startAuthentication).toHaveBeenCalledWith({
        optionsJSON: OPTIONS.options,
        useBrowserAutofill: true,
      }),
    )
    expect(sentBodies(fetchMock, 'POST /api/webauthn/login/options')).toEqual([{}])
    await act(async () => prompt.resolve(CREDENTIAL))
    await waitFor(() => expect(router.location.pathname).toBe('/dashboard'))
    expect(sentBodies(fetchMock, 'POST /api/webauthn/login/verify')).toEqual([{ credential: CREDENTIAL }])
    // Signed in: nothing left to cancel, and no new request was opened.
    expect(browser.WebAuthnAbortService.cancelCeremony).not.toHaveBeenCalled()
    expect(browser.startAuthentication).toHaveBeenCalledOnce()
  })

  it('closes its own request when a press starts a ceremony, never the pressed one, and opens again after', async () => {
    browser.browserSupportsWebAuthnAutofill.mockResolvedValue(true)
    api()
    const autofill = pendingPrompt()
    const pressed = pendingPrompt()
    const second = pendingPrompt()
    browser.startAuthentication
      .mockReturnValueOnce(autofill.promise)
      .mockReturnValueOnce(pressed.promise)
      .mockReturnValueOnce(second.promise)
    browser.WebAuthnAbortService.cancelCeremony.mockImplementation(() =>
      autofill.reject(domError('AbortError')),
    )
    await renderAuthPage('/login')
    await waitFor(() => expect(browser.startAuthentication).toHaveBeenCalledOnce())
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with a passkey' }))
    await waitFor(() => expect(browser.startAuthentication).toHaveBeenCalledTimes(2))
    expect(browser.startAuthentication.mock.calls[1]?.[0]).toEqual({ optionsJSON: OPTIONS.options })
    // The autofill request was closed once, before the pressed prompt opened, and not after.
    const cancel = browser.WebAuthnAbortService.cancelCeremony.mock
    expect(cancel.calls).toHaveLength(1)
    expect(cancel.invocationCallOrder[0]).toBeLessThan(
      browser.startAuthentication.mock.invocationCallOrder[1] ?? 0,
    )
    await act(async () => pressed.reject(domError('NotAllowedError', 'The user cancelled the request')))
    expect(await toasts().findByText('Authentication was cancelled. Please try again.')).toBeTruthy()
    await waitFor(() => expect(browser.startAuthentication).toHaveBeenCalledTimes(3))
    expect(browser.startAuthentication.mock.calls[2]?.[0]).toMatchObject({ useBrowserAutofill: true })
    expect(cancel.calls).toHaveLength(1)
  })

  it('cancels its open request when the page is left', async () => {
    browser.browserSupportsWebAuthnAutofill.mockResolvedValue(true)
    api()
    browser.startAuthentication.mockReturnValue(pendingPrompt().promise)
    const { router } = await renderAuthPage('/login')
    await waitFor(() => expect(browser.startAuthentication).toHaveBeenCalledOnce())
    // Counted from here: a page of an earlier test may still close its own request meanwhile (Preact runs
    // effects after paint, so an unmounted page's last effect can land in this test).
    const cancels = browser.WebAuthnAbortService.cancelCeremony.mock.calls.length
    await act(() => router.navigate('/register'))
    expect(browser.WebAuthnAbortService.cancelCeremony.mock.calls.length - cancels).toBe(1)
  })

  it('says when the server refuses the passkey picked, and opens a new request', async () => {
    browser.browserSupportsWebAuthnAutofill.mockResolvedValue(true)
    const fetchMock = api(() =>
      json(401, {
        code: 'UNAUTHORIZED',
        message: 'Passkey authentication failed',
        key: 'passkeyAuthenticationFailed',
      }),
    )
    browser.startAuthentication.mockResolvedValueOnce(CREDENTIAL).mockReturnValue(pendingPrompt().promise)
    await renderAuthPage('/login')
    expect(await toasts().findByText('Passkey authentication failed')).toBeTruthy()
    await waitFor(() => expect(browser.startAuthentication).toHaveBeenCalledTimes(2))
    expect(callCount(fetchMock, 'POST /api/webauthn/login/options')).toBe(2)
  })
})
