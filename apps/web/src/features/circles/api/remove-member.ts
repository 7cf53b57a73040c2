import { ZMessageResponse } from '@circles/shared'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { circleKeys, isCircleDataQuery } from './query-keys'

/** DELETE /circles/:id/users/:userId (admin; never the admin, never oneself). */
export const removeMember = (circleId: string, userId: string) =>
  api.delete(`/circles/${encodeURIComponent(circleId)}/users/${encodeURIComponent(userId)}`, ZMessageResponse)

export function useRemoveMember(circleId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (userId: string) => removeMember(circleId, userId),
    // The circle's members and the list's member count; the dialog stays busy until both are fresh.
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: circleKeys.all, predicate: isCircleDataQuery }),
  })
}
