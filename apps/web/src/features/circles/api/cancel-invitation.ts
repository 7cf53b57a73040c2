import { ZMessageResponse } from '@circles/shared'
import { useQueryClient } from '@tanstack/react-query'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'
import { api } from '@/lib/api-client'
import { circleKeys } from './query-keys'

/** DELETE /circles/:id/invitations/:invId (admin): the link stops working. */
export const cancelInvitation = (circleId: string, invitationId: string) =>
  api.delete(
    `/circles/${encodeURIComponent(circleId)}/invitations/${encodeURIComponent(invitationId)}`,
    ZMessageResponse,
  )

export function useCancelInvitation(circleId: string) {
  const queryClient = useQueryClient()
  return useGuardedMutation({
    mutationFn: (invitationId: string) => cancelInvitation(circleId, invitationId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: circleKeys.detail(circleId) }),
  })
}
