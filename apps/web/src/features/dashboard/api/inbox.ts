import {
  type THandover,
  type THandoverAnswerInput,
  ZHandoverListResponse,
  ZHandoverResponse,
} from '@circles/shared'
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'

/**
 * One entry of 'Waiting for you': something only this user can answer. Handover requests today; a
 * loan request joins as another `kind` with its own row (docs/decisions/0029).
 */
export type InboxEntry = { kind: 'handover'; id: string; handover: THandover }

/** Under ['dashboard']: every real-time event that touches a handover refetches it (lib/realtime). */
export const inboxKey = ['dashboard', 'inbox'] as const

/** GET /handovers: the requests waiting for this user's answer, oldest first (first come, first served). */
export const inboxQuery = (userId: string | undefined) =>
  queryOptions({
    enabled: Boolean(userId),
    queryKey: [...inboxKey, userId],
    queryFn: ({ signal }) =>
      api.get('/handovers', ZHandoverListResponse, { signal }).then(({ handovers }) =>
        handovers
          .filter((h) => h.status === 'PENDING' && h.receiverId === userId)
          .reverse()
          .map((handover): InboxEntry => ({ kind: 'handover', id: handover.id, handover })),
      ),
  })
export const useInbox = (userId: string | undefined) => useQuery(inboxQuery(userId))

/** PUT /handovers/:id/status from the inbox; the dashboard and the items refresh after it, refused too. */
export function useAnswerFromInbox() {
  const queryClient = useQueryClient()
  return useGuardedMutation({
    mutationFn: ({ id, ...body }: THandoverAnswerInput & { id: string }) =>
      api.put(`/handovers/${encodeURIComponent(id)}/status`, body, ZHandoverResponse),
    // As on the item's pages: this device remembers the signed tree that holds the new block.
    onSuccess: ({ handover, receipt }) => {
      if (!receipt) return
      void import('@/lib/ledger-verification/use-ledger-verification')
        .then(({ keepReceipt }) => keepReceipt(queryClient, handover.circleId, receipt))
        .catch(() => undefined)
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['dashboard'] }),
        queryClient.invalidateQueries({ queryKey: ['items'] }),
      ]),
  })
}
