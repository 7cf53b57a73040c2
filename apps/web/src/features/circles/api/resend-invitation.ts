import { ZInvitationResponse } from '@circles/shared'
import { useQueryClient } from '@tanstack/react-query'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'
import { api } from '@/lib/api-client'
import { circleKeys } from './query-keys'

/** POST /circles/:id/invitations/:invId/resend (admin): a fresh token, emailed; the old link stops working. */
export const resendInvitation = (circleId: string, invitationId: string) =>
  api.post(
    `/circles/${encodeURIComponent(circleId)}/invitations/${encodeURIComponent(invitationId)}/resend`,
    undefined,
    ZInvitationResponse,
  )

export function useResendInvitation(circleId: string) {
  const queryClient = useQueryClient()
  return useGuardedMutation({
    mutationFn: (invitationId: string) => resendInvitation(circleId, invitationId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: circleKeys.detail(circleId) }),
  })
}
