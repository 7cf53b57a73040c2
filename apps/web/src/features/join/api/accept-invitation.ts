import { ZAcceptInvitationResponse } from '@circles/shared'
import { useQueryClient } from '@tanstack/react-query'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'
import { api } from '@/lib/api-client'

/** POST /circles/invitations/:token (signed in): joins the circle, or says the user already is a member. */
export const acceptInvitation = (token: string) =>
  api.post(`/circles/invitations/${encodeURIComponent(token)}`, undefined, ZAcceptInvitationResponse)

export function useAcceptInvitation() {
  const queryClient = useQueryClient()
  return useGuardedMutation({
    mutationFn: acceptInvitation,
    // ['circles'] is the circles feature's key for the list and every circle: the new one shows up there.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['circles'] }),
  })
}
