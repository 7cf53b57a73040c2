import { ZCircleResponse, type TCircleDetail, type TCircleInput } from '@circles/shared'
import { useQueryClient } from '@tanstack/react-query'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'
import { api } from '@/lib/api-client'
import { circleKeys, isCircleDataQuery } from './query-keys'

/** PUT /circles/:id (admin): name and description. */
export const updateCircle = (id: string, body: TCircleInput) =>
  api.put(`/circles/${encodeURIComponent(id)}`, body, ZCircleResponse)

export function useUpdateCircle(id: string) {
  const queryClient = useQueryClient()
  return useGuardedMutation({
    mutationFn: (body: TCircleInput) => updateCircle(id, body),
    onSuccess: (answer) => {
      // The page shows the saved text at once; the refetch then brings the rest up to date.
      queryClient.setQueryData<TCircleDetail>(circleKeys.detail(id), (old) =>
        old ? { ...old, name: answer.circle.name, description: answer.circle.description } : old,
      )
      // The list shows the name and description too.
      return queryClient.invalidateQueries({ queryKey: circleKeys.all, predicate: isCircleDataQuery })
    },
  })
}
