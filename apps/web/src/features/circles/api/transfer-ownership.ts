import { ZCircleResponse, type TCircleDetail } from '@circles/shared'
import { useQueryClient } from '@tanstack/react-query'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'
import { api } from '@/lib/api-client'
import { circleKeys, isCircleDataQuery } from './query-keys'

/** POST /circles/:id/transfer (admin): the member becomes the admin, the caller a member. */
export const transferOwnership = (circleId: string, userId: string) =>
  api.post(`/circles/${encodeURIComponent(circleId)}/transfer`, { userId }, ZCircleResponse)

export function useTransferOwnership(circleId: string) {
  const queryClient = useQueryClient()
  return useGuardedMutation({
    mutationFn: (userId: string) => transferOwnership(circleId, userId),
    onSuccess: (answer) => {
      // The page switches to the member view at once (and the admin-only panels go with it).
      const adminId = answer.circle.adminId
      queryClient.setQueryData<TCircleDetail>(circleKeys.detail(circleId), (old) =>
        old
          ? {
              ...old,
              adminId,
              users: old.users.map((member) => ({
                ...member,
                role: member.userId === adminId ? ('ADMIN' as const) : ('MEMBER' as const),
              })),
            }
          : old,
      )
      // Roles change on the circle page and in the list's badges.
      return queryClient.invalidateQueries({ queryKey: circleKeys.all, predicate: isCircleDataQuery })
    },
  })
}
