import { type TRenamePasskeyRequest, ZRenamePasskeyResponse } from '@circles/shared'
import { useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'

/** The passkey list's query key (GET /webauthn/credentials in profile.ts). */
const PASSKEYS_KEY = ['profile', 'passkeys'] as const

/** PATCH /webauthn/credentials/:id (issue 24): renames one of my passkeys; the list follows. */
export const useRenamePasskey = () => {
  const queryClient = useQueryClient()
  return useGuardedMutation({
    mutationFn: ({ id, ...body }: TRenamePasskeyRequest & { id: string }) =>
      api.patch(`/webauthn/credentials/${encodeURIComponent(id)}`, body, ZRenamePasskeyResponse),
    onSettled: () => queryClient.invalidateQueries({ queryKey: PASSKEYS_KEY }),
  })
}
