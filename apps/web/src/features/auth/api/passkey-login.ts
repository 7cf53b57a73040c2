import { ZLoginOptionsResponse, ZLoginResponse, type TLoginResponse } from '@circles/shared'
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'
import { ApiError, api } from '@/lib/api-client'
import { passkeysSupported } from '@/lib/passkeys'

/**
 * The passkey sign-in ceremony (spec 000 §5, §7, §8): options from the server, the browser's credential
 * prompt (@simplewebauthn/browser), then the server's verification. An email without passkeys answers
 * 404 NO_PASSKEYS, shown as the spec's "no passkeys registered yet" message.
 */

export type PasskeyFailure =
  | 'unsupported'
  | 'noCredentials'
  | 'invalidOptions'
  | 'invalidResponse'
  | 'notAllowed'
  | 'cancelled'
  | 'security'
  | 'aborted'
  | 'invalidState'
  | 'unknown'
  | 'failed'

/** A failure with one of the spec's passkey texts (its key in the auth namespace's `passkey` group). */
export class PasskeyError extends Error {
  override readonly name = 'PasskeyError'
  constructor(readonly reason: PasskeyFailure) {
    super(reason)
  }
}

/** The spec's text for what the browser's credential prompt threw. */
export function passkeyFailureOf(error: unknown): PasskeyFailure {
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined
  const message = error instanceof Error ? error.message : ''
  switch (name) {
    case 'NotAllowedError':
      return /cancel/i.test(message) ? 'cancelled' : 'notAllowed'
    case 'SecurityError':
      return 'security'
    case 'AbortError':
      return 'aborted'
    case 'InvalidStateError':
      return 'invalidState'
    case 'UnknownError':
      return 'unknown'
    default:
      return 'failed'
  }
}

export { passkeysSupported }

/**
 * Passkey ceremonies started by a press (not the autofill's) that have not settled: the autofill
 * (lib/passkey-autofill.ts) neither starts nor cancels a request while one runs.
 */
let pressedCeremonies = 0
export const pressedCeremonyRunning = () => pressedCeremonies > 0

/** Options for a sign-in: with an email, that account's passkeys; without, any passkey of this site. */
export async function passkeyLoginOptions(email: string | undefined) {
  let answer: unknown
  try {
    answer = await api.post('/webauthn/login/options', email ? { email } : {}, undefined, {
      skipLogoutOn401: true,
    })
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw new PasskeyError('noCredentials')
    throw error
  }
  const options = ZLoginOptionsResponse.safeParse(answer)
  if (!options.success) throw new PasskeyError('invalidOptions')
  return options.data
}

/** The server's check of what the authenticator signed: a session, or the spec's failure. */
export async function verifyPasskeyLogin(credential: unknown, userId: string | undefined) {
  const verified = await api.post('/webauthn/login/verify', { credential, userId }, undefined, {
    skipLogoutOn401: true,
  })
  const session = ZLoginResponse.safeParse(verified)
  if (!session.success) throw new PasskeyError('invalidResponse')
  return session.data
}

/**
 * Signs in with a passkey. With an email, the spec's path: that account's passkeys. Without (issue 24),
 * the browser offers the discoverable passkeys it holds for this site and the server finds the account
 * by the credential. Either aborts a pending autofill request (one ceremony at a time).
 */
export async function loginWithPasskey(email?: string): Promise<TLoginResponse> {
  if (!passkeysSupported()) throw new PasskeyError('unsupported')
  pressedCeremonies += 1
  try {
    const options = await passkeyLoginOptions(email)
    let credential
    try {
      const { startAuthentication } = await import('@simplewebauthn/browser')
      credential = await startAuthentication({
        optionsJSON: options.options as unknown as PublicKeyCredentialRequestOptionsJSON,
      })
    } catch (error) {
      throw new PasskeyError(passkeyFailureOf(error))
    }
    return await verifyPasskeyLogin(credential, options.userId)
  } finally {
    pressedCeremonies -= 1
  }
}

export const usePasskeyLogin = () =>
  useGuardedMutation({ mutationFn: (email?: string) => loginWithPasskey(email) })
