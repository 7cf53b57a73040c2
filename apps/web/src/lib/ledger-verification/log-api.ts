import {
  ZCheckpointResponse,
  ZConsistencyProofResponse,
  ZInclusionBatchResponse,
  ZLedgerKeysResponse,
} from '@circles/shared'
import { queryOptions } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { VerifyDeps } from './verify-circle'

const base = (circleId: string) => `/ledger/${encodeURIComponent(circleId)}`

/** The server calls of the on-device check (issue 14), GET /api/ledger/…. */
export const logApi = {
  keys: () => api.get('/ledger/keys', ZLedgerKeysResponse).then((a) => a.keys),
  checkpoint: (circleId: string) =>
    api.get(`${base(circleId)}/checkpoint`, ZCheckpointResponse).then((a) => a.checkpoint),
  consistency: (circleId: string, from: number, to: number) =>
    api.get(`${base(circleId)}/proof/consistency?from=${from}&to=${to}`, ZConsistencyProofResponse),
  inclusions: (circleId: string, indexes: number[], size: number) =>
    api.get(
      `${base(circleId)}/proof/inclusions?size=${size}&indexes=${indexes.join(',')}`,
      ZInclusionBatchResponse,
    ),
} satisfies Partial<Record<keyof VerifyDeps, unknown>>

/** The verifier keys: published once, asked once per page load (a ledger screen asks beside its code). */
export const ledgerKeysQuery = queryOptions({
  queryKey: ['ledger', 'keys'],
  queryFn: logApi.keys,
  staleTime: Infinity,
})
