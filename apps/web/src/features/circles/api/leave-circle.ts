import { ZMessageResponse } from '@circles/shared'
import { useQueryClient } from '@tanstack/react-query'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'
import { api } from '@/lib/api-client'
import { circleKeys } from './query-keys'

/** POST /circles/:id/leave (a member who is not the admin; the admin gets 409 adminMustTransfer). */
export const leaveCircle = (circleId: string) =>
  api.post(`/circles/${encodeURIComponent(circleId)}/leave`, undefined, ZMessageResponse)

/**
 * Leaving refreshes the list. The circle's own cache entry is the caller's to drop once it has
 * navigated away (`forgetCircle`): dropped while the page is still open, it would refetch into a 404.
 */
export function useLeaveCircle(circleId: string) {
  const queryClient = useQueryClient()
  const mutation = useGuardedMutation({
    mutationFn: () => leaveCircle(circleId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: circleKeys.all, exact: true }),
  })
  const forgetCircle = () => queryClient.removeQueries({ queryKey: circleKeys.detail(circleId) })
  return { ...mutation, forgetCircle }
}
