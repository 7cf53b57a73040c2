import { ZQrInvitationResponse, type TInviteRequest } from '@circles/shared'
import { useQueryClient } from '@tanstack/react-query'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'
import { api } from '@/lib/api-client'
import { circleKeys } from './query-keys'

/** POST /circles/:id/invitations/qr (admin): an invitation bound to the email, no email sent; returns its token. */
export const createQrInvitation = (circleId: string, body: TInviteRequest) =>
  api.post(`/circles/${encodeURIComponent(circleId)}/invitations/qr`, body, ZQrInvitationResponse)

export function useCreateQrInvitation(circleId: string) {
  const queryClient = useQueryClient()
  return useGuardedMutation({
    mutationFn: (body: TInviteRequest) => createQrInvitation(circleId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: circleKeys.detail(circleId) }),
  })
}
