import {
  type TCreateItemRequest,
  type TItem,
  type TUpdateItemRequest,
  ZCircleDetailResponse,
  ZCircleListResponse,
  ZItemListResponse,
  ZItemResponse,
  ZItemSearchResponse,
  ZMessageResponse,
  ZOwnershipStatusResponse,
} from '@circles/shared'
import {
  infiniteQueryOptions,
  keepPreviousData,
  type QueryClient,
  queryOptions,
  useInfiniteQuery,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'
import { api } from '@/lib/api-client'
import { apiQuery, type ItemSearchState } from '../lib/item-search'

/** Every items query starts with `['items']`: a change refreshes lists and details alike. */
export const itemKeys = {
  all: ['items'] as const,
  circle: (circleId: string) => ['items', 'circle', circleId] as const,
  mine: ['items', 'mine'] as const,
  detail: (id: string) => ['items', 'detail', id] as const,
  search: (scope: string, state: ItemSearchState) => ['items', 'search', scope, state] as const,
}

/** Items per page of a search; 'Show more' asks for the next page. */
export const SEARCH_PAGE_SIZE = 24

/**
 * GET /items?… (scope 'mine': /items) or GET /items/circle/:id?… (a circle's page): one search, its
 * pages, and the number of every match. The previous results stay on screen while the next arrive.
 */
export const itemSearchQuery = (scope: { mine: true } | { circleId: string }, state: ItemSearchState) => {
  const path = 'circleId' in scope ? `/items/circle/${encodeURIComponent(scope.circleId)}` : '/items'
  return infiniteQueryOptions({
    queryKey: itemKeys.search('circleId' in scope ? scope.circleId : 'mine', state),
    initialPageParam: 0,
    queryFn: ({ signal, pageParam }) => {
      const query = apiQuery(state, {
        scope: 'circleId' in scope ? 'circle' : 'mine',
        limit: SEARCH_PAGE_SIZE,
        offset: pageParam,
      })
      return api.get(`${path}?${query}`, ZItemSearchResponse, { signal })
    },
    getNextPageParam: (last, pages) => {
      const seen = pages.reduce((n, page) => n + page.items.length, 0)
      return seen < last.total && last.items.length > 0 ? seen : undefined
    },
    placeholderData: keepPreviousData,
  })
}
export const useItemSearch = (scope: { mine: true } | { circleId: string }, state: ItemSearchState) =>
  useInfiniteQuery(itemSearchQuery(scope, state))

/** GET /circles for the circle filter on /items: the circles the user is in. */
export const myCirclesQuery = () =>
  queryOptions({
    queryKey: ['items', 'my-circles'],
    queryFn: ({ signal }) =>
      api.get('/circles', ZCircleListResponse, { signal }).then((a) => a.circles.map((c) => c.circle)),
  })
export const useMyCircles = () => useQuery(myCirclesQuery())

/** GET /circles/:id for a circle's items page: its name and the caller's role. */
export const circleInfoQuery = (circleId: string) =>
  queryOptions({
    queryKey: ['items', 'circle-info', circleId],
    queryFn: ({ signal }) =>
      api
        .get(`/circles/${encodeURIComponent(circleId)}`, ZCircleDetailResponse, { signal })
        .then((a) => a.circle),
  })

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

export const itemQuery = (id: string) =>
  queryOptions({
    queryKey: itemKeys.detail(id),
    queryFn: ({ signal }) =>
      api.get(`/items/${encodeURIComponent(id)}`, ZItemResponse, { signal }).then((a) => a.item),
  })
export const useItem = (id: string, { enabled = true }: { enabled?: boolean } = {}) =>
  useQuery({ ...itemQuery(id), enabled })

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
export const ownershipStatusQuery = (id: string) =>
  queryOptions({
    queryKey: [...itemKeys.detail(id), 'ownership'],
    queryFn: ({ signal }) =>
      api.get(`/items/${encodeURIComponent(id)}/ownership-status`, ZOwnershipStatusResponse, { signal }),
  })
export const useOwnershipStatus = (id: string) => useQuery(ownershipStatusQuery(id))

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

/**
 * GET /items/by-code/:code (issue 27): the item a label's code names, for the circle's members; anyone
 * else gets the 404 of a missing item. The answer also fills the item's own query.
 */
export function useItemByCode(code: string) {
  const queryClient = useQueryClient()
  return useQuery({
    queryKey: ['items', 'by-code', code],
    // A code never moves to another item: one this device has seen (in any list or item kept in the
    // cache, offline too) opens at once; the server is still asked when there is a connection.
    initialData: () => cachedItemWithCode(queryClient, code),
    initialDataUpdatedAt: 0,
    queryFn: async ({ signal }) => {
      const { item } = await api.get(`/items/by-code/${encodeURIComponent(code)}`, ZItemResponse, { signal })
      queryClient.setQueryData(itemKeys.detail(item.id), item)
      return item
    },
    retry: false,
  })
}

/** An item with this label code in any items query the cache holds (lists, pages, details). */
function cachedItemWithCode(queryClient: QueryClient, code: string): TItem | undefined {
  const find = (value: unknown, depth: number): TItem | undefined => {
    if (depth > 4 || value === null || typeof value !== 'object') return undefined
    if (Array.isArray(value)) {
      for (const entry of value) {
        const found = find(entry, depth + 1)
        if (found) return found
      }
      return undefined
    }
    const record = value as Record<string, unknown>
    if (record.code === code && typeof record.id === 'string' && typeof record.name === 'string')
      return value as TItem
    for (const entry of Object.values(record)) {
      const found = find(entry, depth + 1)
      if (found) return found
    }
    return undefined
  }
  for (const [, data] of queryClient.getQueriesData({ queryKey: ['items'] })) {
    const found = find(data, 0)
    if (found) return found
  }
  return undefined
}
