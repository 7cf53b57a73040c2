import {
  type TNoticePreferences,
  type TUpdateMeRequest,
  ZCredentialListResponse,
  ZMessageResponse,
  ZNoticePreferencesResponse,
  ZRegistrationOptions,
  ZRegistrationVerifyResponse,
  ZUserResponse,
} from '@circles/shared'
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'
import { api } from '@/lib/api-client'
import { passkeysSupported } from '@/lib/passkeys'
import { updateSessionUser } from '@/lib/session'

const profileKeys = {
  passkeys: ['profile', 'passkeys'] as const,
  notices: ['profile', 'notices'] as const,
}

/** PUT /users/me: the name; the session's stored user follows. */
export const useUpdateProfile = () =>
  useGuardedMutation({
    mutationFn: (body: TUpdateMeRequest) => api.put('/users/me', body, ZUserResponse),
    onSuccess: ({ user }) => updateSessionUser(user),
  })

/** GET /webauthn/credentials. */
export const usePasskeys = (enabled: boolean) =>
  useQuery({
    enabled,
    queryKey: profileKeys.passkeys,
    queryFn: ({ signal }) =>
      api.get('/webauthn/credentials', ZCredentialListResponse, { signal }).then((a) => a.credentials),
  })

export const useDeletePasskey = () => {
  const queryClient = useQueryClient()
  return useGuardedMutation({
    mutationFn: (id: string) =>
      api.delete(`/webauthn/credentials/${encodeURIComponent(id)}`, ZMessageResponse),
    onSettled: () => queryClient.invalidateQueries({ queryKey: profileKeys.passkeys }),
  })
}

export type RegistrationFailure =
  'unsupported' | 'invalidOptions' | 'notAllowed' | 'security' | 'exists' | 'failed'

export class RegistrationError extends Error {
  override readonly name = 'RegistrationError'
  constructor(readonly reason: RegistrationFailure) {
    super(reason)
  }
}

/** Spec 000 §5: -8 is removed from the offered algorithms, -7 and -257 are always there. */
export function withSpecAlgorithms<T extends { pubKeyCredParams: { type: 'public-key'; alg: number }[] }>(
  options: T,
): T {
  const params = options.pubKeyCredParams.filter((p) => p.alg !== -8)
  for (const alg of [-7, -257]) {
    if (!params.some((p) => p.alg === alg)) params.push({ type: 'public-key', alg })
  }
  return { ...options, pubKeyCredParams: params }
}

function registrationFailureOf(error: unknown): RegistrationFailure {
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined
  if (name === 'NotAllowedError' || name === 'AbortError') return 'notAllowed'
  if (name === 'SecurityError') return 'security'
  if (name === 'InvalidStateError') return 'exists'
  return 'failed'
}

/** The registration ceremony (spec 001 §7): options, the browser's prompt, the server's check. */
export async function registerPasskey() {
  if (!passkeysSupported()) throw new RegistrationError('unsupported')
  const options = ZRegistrationOptions.safeParse(await api.get('/webauthn/register/options'))
  if (!options.success) throw new RegistrationError('invalidOptions')
  let credential
  try {
    const { startRegistration } = await import('@simplewebauthn/browser')
    credential = await startRegistration({
      optionsJSON: withSpecAlgorithms(options.data) as unknown as PublicKeyCredentialCreationOptionsJSON,
    })
  } catch (error) {
    throw new RegistrationError(registrationFailureOf(error))
  }
  return api.post('/webauthn/register/verify', { credential }, ZRegistrationVerifyResponse)
}

export const useRegisterPasskey = () => {
  const queryClient = useQueryClient()
  return useGuardedMutation({
    mutationFn: registerPasskey,
    onSettled: () => queryClient.invalidateQueries({ queryKey: profileKeys.passkeys }),
  })
}

/** GET and PUT /users/me/notifications. */
export const useNotices = () =>
  useQuery({
    queryKey: profileKeys.notices,
    queryFn: ({ signal }) =>
      api.get('/users/me/notifications', ZNoticePreferencesResponse, { signal }).then((a) => a.notices),
  })

export const useUpdateNotices = () => {
  const queryClient = useQueryClient()
  return useGuardedMutation({
    mutationFn: (body: TNoticePreferences) =>
      api.put('/users/me/notifications', body, ZNoticePreferencesResponse),
    onSuccess: ({ notices }) => queryClient.setQueryData(profileKeys.notices, notices),
  })
}
