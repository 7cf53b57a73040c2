import { ZBlockListResponse, ZBlockResponse, ZVerificationResult } from '@circles/shared'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'
import { api } from '@/lib/api-client'

export type BlockScope = { circleId?: string; itemId?: string }

const listPath = ({ circleId, itemId }: BlockScope) =>
  circleId
    ? `/blockchain/circle/${encodeURIComponent(circleId)}`
    : itemId
      ? `/blockchain/item/${encodeURIComponent(itemId)}`
      : '/blockchain'

/**
 * GET /blockchain, /blockchain/circle/:id or /blockchain/item/:id: newest first, members only; a
 * circle's or an item's with the log's newest checkpoint, for the device check (docs/decisions/0066).
 */
export const blocksQuery = (scope: BlockScope) =>
  queryOptions({
    queryKey: ['blocks', scope.circleId ?? null, scope.itemId ?? null],
    queryFn: ({ signal }) => api.get(listPath(scope), ZBlockListResponse, { signal }),
  })
export const useBlocks = (scope: BlockScope) => useQuery(blocksQuery(scope))

export const useBlock = (id: string) =>
  useQuery({
    queryKey: ['blocks', 'one', id],
    queryFn: ({ signal }) =>
      api.get(`/blockchain/${encodeURIComponent(id)}`, ZBlockResponse, { signal }).then((a) => a.block),
  })

/** GET /blockchain/verify/:circleId: the server recomputes the whole chain. */
export const useVerifyCircle = () =>
  useGuardedMutation({
    mutationFn: (circleId: string) =>
      api.get(`/blockchain/verify/${encodeURIComponent(circleId)}`, ZVerificationResult),
  })
