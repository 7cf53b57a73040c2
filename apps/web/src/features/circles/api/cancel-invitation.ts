import { ZMessageResponse } from '@circles/shared'
import { useMutation, useQueryClient } from '@tanstack/react-query'
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
  return useMutation({
    mutationFn: (invitationId: string) => cancelInvitation(circleId, invitationId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: circleKeys.detail(circleId) }),
  })
}
