import { type QueryClient, useQueries, useQueryClient } from '@tanstack/react-query'
import {
  type BlockConditionEvidence,
  type PhotoProof,
  type PhotoSlot,
  provePhoto,
} from './condition-evidence'

/** A committed photo as this device found it. */
export type PhotoCheck = PhotoSlot & {
  retry: () => void
} & (
    | { status: 'deleted' }
    | { status: 'pending' }
    /** Could not be fetched (offline, a refusal): not evidence of anything; retry. */
    | { status: 'error' }
    | { status: 'verified'; objectUrl: string; type: string }
    | { status: 'mismatch'; actual: string }
  )

const PHOTO_KEY = 'condition-photo'
const watched = new WeakSet<QueryClient>()

/** A checked photo's blob URL lives as long as its query: freed when react-query drops it. */
function releaseObjectUrlsOnRemoval(queryClient: QueryClient) {
  if (watched.has(queryClient)) return
  watched.add(queryClient)
  queryClient.getQueryCache().subscribe((event) => {
    const { queryKey, state } = event.query
    const data = state.data as PhotoProof | undefined
    if (event.type === 'removed' && queryKey[0] === PHOTO_KEY && data?.state === 'verified') {
      URL.revokeObjectURL(data.objectUrl)
    }
  })
}

/**
 * Every committed photo of a block, fetched with the session and hashed on this device (issue 28): each
 * verified, not the recorded bytes (the alarm), deleted with its item (url null: the digest stays), or not
 * fetched yet / not reachable. Keyed by url and digest: the same photo is fetched once per page visit.
 */
export function useConditionPhotos(evidence: BlockConditionEvidence | null): PhotoCheck[] {
  const queryClient = useQueryClient()
  releaseObjectUrlsOnRemoval(queryClient)
  const slots = evidence?.sides.flatMap((side) => side.photos) ?? []
  const results = useQueries({
    queries: slots.map((slot) => ({
      queryKey: [PHOTO_KEY, slot.url, slot.expected],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        provePhoto({ ...slot, url: slot.url! }, undefined, signal),
      enabled: slot.url !== null,
      staleTime: Infinity,
      retry: 1,
    })),
  })
  return slots.map((slot, i) => {
    const query = results[i]!
    const retry = () => void query.refetch()
    if (slot.url === null) return { ...slot, retry, status: 'deleted' }
    if (query.data?.state === 'verified') {
      return { ...slot, retry, status: 'verified', objectUrl: query.data.objectUrl, type: query.data.type }
    }
    if (query.data?.state === 'mismatch')
      return { ...slot, retry, status: 'mismatch', actual: query.data.actual }
    if (query.isError) return { ...slot, retry, status: 'error' }
    return { ...slot, retry, status: 'pending' }
  })
}
