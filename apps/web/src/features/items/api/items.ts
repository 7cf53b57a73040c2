import {
  type TCreateItemRequest,
  type TUpdateItemRequest,
  ZItemListResponse,
  ZItemResponse,
  ZMessageResponse,
  ZOwnershipStatusResponse,
} from '@circles/shared'
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'
import { api } from '@/lib/api-client'

/** Every items query starts with `['items']`: a change refreshes lists and details alike. */
export const itemKeys = {
  all: ['items'] as const,
  circle: (circleId: string) => ['items', 'circle', circleId] as const,
  mine: ['items', 'mine'] as const,
  detail: (id: string) => ['items', 'detail', id] as const,
}

/** GET /items/circle/:id: the circle's items (members only; 404 otherwise). */
export const circleItemsQuery = (circleId: string) =>
  queryOptions({
    queryKey: itemKeys.circle(circleId),
    queryFn: ({ signal }) =>
      api
        .get(`/items/circle/${encodeURIComponent(circleId)}`, ZItemListResponse, { signal })
        .then((a) => a.items),
  })

export const useCircleItems = (circleId: string) => useQuery(circleItemsQuery(circleId))

/** GET /items/my-items: what the user holds, in any circle. */
export const useMyItems = () =>
  useQuery({
    queryKey: itemKeys.mine,
    queryFn: ({ signal }) => api.get('/items/my-items', ZItemListResponse, { signal }).then((a) => a.items),
  })

export const useItem = (id: string, { enabled = true }: { enabled?: boolean } = {}) =>
  useQuery({
    enabled,
    queryKey: itemKeys.detail(id),
    queryFn: ({ signal }) =>
      api.get(`/items/${encodeURIComponent(id)}`, ZItemResponse, { signal }).then((a) => a.item),
  })

/** POST /items, then (in the form) the picture; every items list refreshes after. */
export function useCreateItem() {
  const queryClient = useQueryClient()
  return useGuardedMutation({
    mutationFn: (body: Omit<TCreateItemRequest, 'imageUrl'>) => api.post('/items', body, ZItemResponse),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: itemKeys.all }),
  })
}

/** PUT /items/:id: name, description, and the picture kept (its URL), removed (null) or untouched. */
export function useUpdateItem(id: string) {
  const queryClient = useQueryClient()
  return useGuardedMutation({
    mutationFn: (body: {
      name: string
      description: string | null
      imageUrl?: TUpdateItemRequest['imageUrl']
    }) => api.put(`/items/${encodeURIComponent(id)}`, body, ZItemResponse),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: itemKeys.all }),
  })
}

/** GET /items/:id/ownership-status: whether the caller may delete (complete ownership). */
export const useOwnershipStatus = (id: string) =>
  useQuery({
    queryKey: [...itemKeys.detail(id), 'ownership'],
    queryFn: ({ signal }) =>
      api.get(`/items/${encodeURIComponent(id)}/ownership-status`, ZOwnershipStatusResponse, { signal }),
  })

export function useDeleteItem() {
  const queryClient = useQueryClient()
  return useGuardedMutation({
    mutationKey: ['items', 'delete'],
    mutationFn: (id: string) => api.delete(`/items/${encodeURIComponent(id)}`, ZMessageResponse),
    // Not the deleted item's own query: its page is still open and would refetch into a 404.
    onSuccess: (_answer, id) =>
      queryClient.invalidateQueries({
        queryKey: itemKeys.all,
        predicate: (query) => query.queryKey[1] !== 'detail' || query.queryKey[2] !== id,
      }),
    // A refusal means the page was out of date (a handover requested meanwhile): show what is true now.
    onError: () => queryClient.invalidateQueries({ queryKey: itemKeys.all }),
  })
}
