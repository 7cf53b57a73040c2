import { ZMessageResponse } from '@circles/shared'
import { useQueryClient } from '@tanstack/react-query'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'
import { api } from '@/lib/api-client'
import { circleKeys, isCircleDataQuery } from './query-keys'

/** DELETE /circles/:id/users/:userId (admin; never the admin, never oneself). */
export const removeMember = (circleId: string, userId: string) =>
  api.delete(`/circles/${encodeURIComponent(circleId)}/users/${encodeURIComponent(userId)}`, ZMessageResponse)

export function useRemoveMember(circleId: string) {
  const queryClient = useQueryClient()
  return useGuardedMutation({
    mutationFn: (userId: string) => removeMember(circleId, userId),
    // The circle's members and the list's member count; the dialog stays busy until both are fresh.
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: circleKeys.all, predicate: isCircleDataQuery }),
  })
}
