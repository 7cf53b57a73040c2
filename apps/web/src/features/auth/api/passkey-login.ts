import { ZLoginResponse, type TLoginResponse } from '@circles/shared'
import { useMutation } from '@tanstack/react-query'
import { z } from 'zod'
import { ApiError, api } from '@/lib/api-client'

/**
 * The passkey sign-in ceremony (spec 000 §5, §7, §8): options from the server, the browser's credential
 * prompt, then the server's verification. The /webauthn endpoints arrive with the passkeys issue; until
 * then the options call answers 404, which the spec's "no passkeys registered yet" message covers.
 * The two answer schemas belong in @circles/shared once the server declares them.
 */
const ZPasskeyLoginOptions = z.object({
  options: z.looseObject({ challenge: z.string().min(1) }),
  userId: z.string().optional(),
})

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

/** True when this browser can run a WebAuthn ceremony at all. */
export function passkeysSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    typeof window.PublicKeyCredential === 'function' &&
    typeof navigator !== 'undefined' &&
    Boolean(navigator.credentials)
  )
}

export async function loginWithPasskey(email: string): Promise<TLoginResponse> {
  if (!passkeysSupported()) throw new PasskeyError('unsupported')

  let answer: unknown
  try {
    answer = await api.post('/webauthn/login/options', { email }, undefined, { skipLogoutOn401: true })
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw new PasskeyError('noCredentials')
    throw error
  }
  const options = ZPasskeyLoginOptions.safeParse(answer)
  if (!options.success) throw new PasskeyError('invalidOptions')
  if (typeof PublicKeyCredential.parseRequestOptionsFromJSON !== 'function') {
    throw new PasskeyError('unsupported')
  }

  let credential: Credential | null
  try {
    const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(
      options.data.options as unknown as PublicKeyCredentialRequestOptionsJSON,
    )
    credential = await navigator.credentials.get({ publicKey })
  } catch (error) {
    throw new PasskeyError(passkeyFailureOf(error))
  }
  if (!(credential instanceof PublicKeyCredential)) throw new PasskeyError('failed')

  const verified = await api.post(
    '/webauthn/login/verify',
    { credential: credential.toJSON(), userId: options.data.userId },
    undefined,
    { skipLogoutOn401: true },
  )
  const session = ZLoginResponse.safeParse(verified)
  if (!session.success) throw new PasskeyError('invalidResponse')
  return session.data
}

export const usePasskeyLogin = () => useMutation({ mutationFn: loginWithPasskey })
