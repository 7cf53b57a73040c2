import {
  type TCreateHandoverInput,
  type THandoverAnswerInput,
  ZCircleDetailResponse,
  ZHandoverListResponse,
  ZHandoverResponse,
  ZMessageResponse,
} from '@circles/shared'
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'
import { api } from '@/lib/api-client'
import { itemKeys } from './items'

/** Under `['items']`: a handover's answer refreshes the item, its lists and its history together. */
const handoverKeys = {
  item: (itemId: string) => [...itemKeys.detail(itemId), 'handovers'] as const,
}

/** GET /handovers/item/:id: the item's handovers, newest first. */
export const itemHandoversQuery = (itemId: string) =>
  queryOptions({
    queryKey: handoverKeys.item(itemId),
    queryFn: ({ signal }) =>
      api
        .get(`/handovers/item/${encodeURIComponent(itemId)}`, ZHandoverListResponse, { signal })
        .then((a) => a.handovers),
  })
export const useItemHandovers = (itemId: string) => useQuery(itemHandoversQuery(itemId))

/** GET /circles/:id for the receiver picker: the circle's members. */
export const circleMembersQuery = (circleId: string | undefined) =>
  queryOptions({
    enabled: Boolean(circleId),
    queryKey: ['items', 'circle-members', circleId],
    queryFn: ({ signal }) =>
      api
        .get(`/circles/${encodeURIComponent(circleId ?? '')}`, ZCircleDetailResponse, { signal })
        .then((a) => a.circle.users),
    retry: false,
  })
export const useCircleMembers = (circleId: string | undefined) => useQuery(circleMembersQuery(circleId))

/** After every change, refused ones too: someone else may have changed the item meanwhile. */
function useRefreshItems() {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: itemKeys.all })
}

export function useCreateHandover() {
  const refresh = useRefreshItems()
  return useGuardedMutation({
    mutationKey: ['handovers', 'create'],
    mutationFn: (body: TCreateHandoverInput) => api.post('/handovers', body, ZHandoverResponse),
    onSettled: refresh,
  })
}

export function useAnswerHandover() {
  const refresh = useRefreshItems()
  const queryClient = useQueryClient()
  return useGuardedMutation({
    mutationFn: ({ id, ...body }: THandoverAnswerInput & { id: string }) =>
      api.put(`/handovers/${encodeURIComponent(id)}/status`, body, ZHandoverResponse),
    // A confirmation's receipt: this device remembers the signed tree holding the new block. A receipt
    // that does not check out is not remembered; the circle's ledger page then raises the alarm. The
    // ledger code loads only now, not with every item page.
    onSuccess: ({ handover, receipt }) => {
      if (!receipt) return
      void import('@/lib/ledger-verification/use-ledger-verification')
        .then(({ keepReceipt }) => keepReceipt(queryClient, handover.circleId, receipt))
        .catch(() => undefined)
    },
    onSettled: refresh,
  })
}

export function useCancelHandover() {
  const refresh = useRefreshItems()
  return useGuardedMutation({
    mutationFn: (id: string) => api.delete(`/handovers/${encodeURIComponent(id)}`, ZMessageResponse),
    onSettled: refresh,
  })
}
