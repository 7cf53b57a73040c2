import { ZInvitationResponse, type TInviteRequest } from '@circles/shared'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { circleKeys } from './query-keys'

/** POST /circles/:id/users (admin): invites an address; the server emails the link. */
export const inviteByEmail = (circleId: string, body: TInviteRequest) =>
  api.post(`/circles/${encodeURIComponent(circleId)}/users`, body, ZInvitationResponse)

export function useInviteByEmail(circleId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: TInviteRequest) => inviteByEmail(circleId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: circleKeys.detail(circleId) }),
  })
}
