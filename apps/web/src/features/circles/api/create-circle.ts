import { ZCircleResponse, type TCircleInput } from '@circles/shared'
import { useQueryClient } from '@tanstack/react-query'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'
import { api } from '@/lib/api-client'
import { circleKeys } from './query-keys'

/** POST /circles; 403 PLAN_LIMIT_REACHED once the Personal plan's circles are used up. */
export const createCircle = (body: TCircleInput) => api.post('/circles', body, ZCircleResponse)

export function useCreateCircle() {
  const queryClient = useQueryClient()
  return useGuardedMutation({
    mutationFn: createCircle,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: circleKeys.all, exact: true }),
  })
}
