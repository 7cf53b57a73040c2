import { ZCheckpointResponse, ZCircleWitnessesResponse, ZLedgerKeysResponse } from '@circles/shared'
import { queryOptions } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { VerifyDeps } from './verify-circle'

const base = (circleId: string) => `/ledger/${encodeURIComponent(circleId)}`

/**
 * The server calls of the on-device check (issue 14), GET /api/ledger/…: the keys, the newest signed
 * checkpoint, and the tiles its proofs are built from on this device (issue 29). A tile skips the
 * browser's HTTP cache: it is kept (tile-cache.ts) only once it made a signed root.
 */
export const logApi = {
  keys: () => api.get('/ledger/keys', ZLedgerKeysResponse).then((a) => a.keys),
  checkpoint: (circleId: string) =>
    api.get(`${base(circleId)}/checkpoint`, ZCheckpointResponse).then((a) => a.checkpoint),
  /** Issue 29: the witness keys of the circle's members' devices. */
  witnesses: (circleId: string) =>
    api.get(`${base(circleId)}/witnesses`, ZCircleWitnessesResponse).then((a) => a.witnesses),
  tile: async (circleId: string, path: string) => {
    const { blob } = await api.file(`${base(circleId)}/${path}`, { cache: 'no-store' })
    return new Uint8Array(await blob.arrayBuffer())
  },
} satisfies Partial<Record<keyof VerifyDeps | 'tile' | 'witnesses', unknown>>

/** The verifier keys: published once, asked once per page load (a ledger screen asks beside its code). */
export const ledgerKeysQuery = queryOptions({
  queryKey: ['ledger', 'keys'],
  queryFn: logApi.keys,
  staleTime: Infinity,
})
