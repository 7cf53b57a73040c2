import { afterEach, describe, expect, it, vi } from 'vitest'
import { loginWithPasskey, PasskeyError, passkeyFailureOf } from './passkey-login'

afterEach(() => {
  vi.unstubAllGlobals()
})

const domError = (name: string, message = '') => Object.assign(new Error(message), { name })

describe('passkeyFailureOf', () => {
  it.each([
    [domError('NotAllowedError', 'The operation either timed out or was not allowed.'), 'notAllowed'],
    [domError('NotAllowedError', 'The user cancelled the request'), 'cancelled'],
    [domError('SecurityError'), 'security'],
    [domError('AbortError'), 'aborted'],
    [domError('InvalidStateError'), 'invalidState'],
    [domError('UnknownError'), 'unknown'],
    [new TypeError('weird'), 'failed'],
    ['not even an error', 'failed'],
  ])('%s → %s', (error, reason) => {
    expect(passkeyFailureOf(error)).toBe(reason)
  })
})

describe('loginWithPasskey', () => {
  it('refuses before any request when the browser has no WebAuthn', async () => {
    vi.stubGlobal('PublicKeyCredential', undefined)
    const fetchMock = vi.fn()
    vi.stubGlobal('fetch', fetchMock)
    await expect(loginWithPasskey('a@b.co')).rejects.toEqual(new PasskeyError('unsupported'))
    expect(fetchMock).not.toHaveBeenCalled()
  })
})
