import { ZMessageResponse, ZReauthOptionsResponse } from '@circles/shared'
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'
import { api } from '@/lib/api-client'
import { passkeysSupported } from '@/lib/passkeys'

/** The browser's passkey prompt failed or was cancelled: nothing was sent to delete the account. */
export class PasskeyPromptError extends Error {
  override readonly name = 'PasskeyPromptError'
  constructor(readonly reason: 'unsupported' | 'cancelled' | 'invalidOptions') {
    super(reason)
  }
}

/** A fresh assertion of one of the signed-in person's passkeys (POST /webauthn/reauth/options). */
async function passkeyAssertion(): Promise<unknown> {
  if (!passkeysSupported()) throw new PasskeyPromptError('unsupported')
  const options = ZReauthOptionsResponse.safeParse(await api.post('/webauthn/reauth/options'))
  if (!options.success) throw new PasskeyPromptError('invalidOptions')
  try {
    const { startAuthentication } = await import('@simplewebauthn/browser')
    return await startAuthentication({
      optionsJSON: options.data.options as unknown as PublicKeyCredentialRequestOptionsJSON,
    })
  } catch {
    throw new PasskeyPromptError('cancelled')
  }
}

export type DeleteAccountConfirmation = { password: string } | { passkey: true }

/** POST /users/me/delete (issue 24): with the password, or with a passkey asked for here. */
export async function deleteAccount(confirmation: DeleteAccountConfirmation) {
  const body =
    'password' in confirmation
      ? { password: confirmation.password }
      : { credential: await passkeyAssertion() }
  return api.post('/users/me/delete', body, ZMessageResponse)
}

export const useDeleteAccount = () => useGuardedMutation({ mutationFn: deleteAccount })
