import { ZInvitationResponse, type TInviteRequest } from '@circles/shared'
import { useQueryClient } from '@tanstack/react-query'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'
import { api } from '@/lib/api-client'
import { circleKeys } from './query-keys'

/** POST /circles/:id/users (admin): invites an address; the server emails the link. */
export const inviteByEmail = (circleId: string, body: TInviteRequest) =>
  api.post(`/circles/${encodeURIComponent(circleId)}/users`, body, ZInvitationResponse)

export function useInviteByEmail(circleId: string) {
  const queryClient = useQueryClient()
  return useGuardedMutation({
    // One invitation at a time, even from a form opened again (Back) while the first is on its way.
    mutationKey: ['circles', circleId, 'invite-by-email'],
    mutationFn: (body: TInviteRequest) => inviteByEmail(circleId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: circleKeys.detail(circleId) }),
  })
}
