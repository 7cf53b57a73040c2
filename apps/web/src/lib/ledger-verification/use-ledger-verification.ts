import type { TBlock, TLedgerReceipt } from '@circles/shared'
import { type QueryClient, useQueries, useQuery, useQueryClient } from '@tanstack/react-query'
import { isOffline, offlineDeps, useOffline, recordingProofs, storedProofs, storeProofs } from '@/pwa/offline'
import { ledgerKeysQuery, logApi } from './log-api'
import { rememberCheckpoint, rememberedCheckpoint } from './checkpoint-store'
import { keepTiles, keptTiles, tileKey } from './tile-cache'
import { tileProofs } from './tile-proofs'
import { type CircleVerification, type ShownBlock, verifyCircle, type VerifyDeps } from './verify-circle'
import { witnessCheck } from './witness-check'

/**
 * The server's answers and this device's memory, for the check: the proofs built here from tiles
 * (issue 29), the full ones kept on the device; the newest checkpoint when it came with the blocks.
 */
const onThisDevice = (keys: string[], delivered?: string): VerifyDeps => ({
  keys,
  checkpoint: logApi.checkpoint,
  delivered,
  ...tileProofs({ fetchTile: logApi.tile, kept: keptTiles, keep: keepTiles, keyOf: tileKey }),
  remembered: rememberedCheckpoint,
  remember: rememberCheckpoint,
})

/**
 * After the receiver confirmed a handover: the confirmation's receipt is checked and its checkpoint
 * remembered (verifyCircle), so this device's next visit must extend a signed tree holding the block.
 */
export async function keepReceipt(queryClient: QueryClient, circleId: string, receipt: TLedgerReceipt) {
  const keys = await queryClient.fetchQuery(ledgerKeysQuery)
  return verifyCircle(circleId, [], onThisDevice(keys), receipt)
}

/**
 * The device check of a ledger page. Online: against the server's newest checkpoint, and the proofs it
 * built from tiles are stored with that checkpoint, this device cosigns it and reads the other members'
 * cosignatures for a split view (witness-check.ts); `delivered`, the newest checkpoint that came with the
 * shown blocks, spares asking for it (docs/decisions/0066). Offline: the same check on the stored
 * checkpoint and proofs (issue 27, docs/decisions/0054), its result marked with when they were stored.
 */
export async function checkOnThisDevice(
  circleId: string,
  shown: readonly ShownBlock[],
  keys: string[],
  offline: boolean = isOffline(),
  delivered?: string,
): Promise<CircleVerification> {
  if (offline) {
    const stored = await storedProofs(circleId)
    const result = await verifyCircle(circleId, shown, offlineDeps(keys, rememberedCheckpoint))
    return result.state === 'verified' && stored ? { ...result, offlineFrom: stored.storedAt } : result
  }
  const { deps, recorded } = recordingProofs(onThisDevice(keys, delivered))
  const result = await verifyCircle(circleId, shown, deps)
  if (result.state === 'verified') {
    const { size, note, rootHash, verifiedAt } = result
    await storeProofs({ circleId, note, size, rootHash, proofs: recorded, storedAt: verifiedAt }).catch(
      () => undefined,
    )
  }
  // Issue 29: cosigned when verified, and read for the other members' cosignatures (a split view).
  return witnessCheck(result, keys)
}

export interface CircleCheck {
  circleId: string
  circleName: string
  /** Pending while checking; an error when the server could not be asked (not evidence of anything). */
  status: 'pending' | 'error' | 'done'
  /** Why the check could not run, when status is 'error'. */
  error?: Error | null
  result?: CircleVerification
  retry: () => void
}

/**
 * The answer a ledger page's blocks came in (docs/decisions/0066): the circle log's newest checkpoint,
 * and whether the answer is fresh or being asked again (a page opened on what this device stored).
 */
export interface BlocksAnswer {
  checkpoint?: string
  isStale: boolean
  isFetching: boolean
}

/**
 * Checks every circle a ledger page shows, on this device (issue 14): each circle's newest signed
 * checkpoint against the one this device remembered, and every shown block's place in it. `circleId`
 * names a circle to check even when it shows no block (a log emptied by a rollback is caught too).
 *
 * With the blocks' `answer` (docs/decisions/0066): the first check of these blocks takes the checkpoint
 * they came with instead of asking the server, while that answer is fresh; once a check answered,
 * asking it again (`ledger_cosigned`) asks the server, for the newest cosignatures. Blocks shown from
 * an older answer while a fresh one is on its way (a reload opens on the stored ones) are checked when
 * it is here, with its checkpoint; offline, or when that fails, at once, as before.
 */
export function useLedgerVerification(
  blocks: readonly TBlock[] | undefined,
  circleId?: string,
  answer?: BlocksAnswer,
): CircleCheck[] {
  const queryClient = useQueryClient()
  const keys = useQuery(ledgerKeysQuery)
  const offline = useOffline()
  const delivered = answer && !answer.isStale ? answer.checkpoint : undefined
  const awaitFresh = !offline && !!answer?.isStale && answer.isFetching
  const circles = new Map<string, { name: string; blocks: TBlock[] }>()
  if (circleId && blocks) circles.set(circleId, { name: '', blocks: [] })
  for (const block of blocks ?? []) {
    const entry = circles.get(block.content.circle.id) ?? { name: '', blocks: [] }
    entry.name = block.content.circle.name
    entry.blocks.push(block)
    circles.set(block.content.circle.id, entry)
  }
  const entries = [...circles]
  const results = useQueries({
    queries: entries.map(([id, { blocks: shown }]) => {
      // The shown blocks are part of the key: a new block (a live update) is checked again.
      // Offline and online are two checks: back online, the server's newest checkpoint is asked again.
      const queryKey = ['ledger', 'verification', id, shown.map((b) => b.hash).join(','), offline]
      const firstCheck = () => queryClient.getQueryData(queryKey) === undefined
      return {
        queryKey,
        queryFn: () =>
          checkOnThisDevice(
            id,
            shown,
            keys.data!,
            offline,
            firstCheck() ? deliveredFor(delivered, id) : undefined,
          ),
        enabled: keys.isSuccess && !(awaitFresh && firstCheck()),
        // Offline it runs too, on what this device stored (react-query would otherwise pause it).
        networkMode: 'always' as const,
        staleTime: Infinity,
        retry: 1,
      }
    }),
  })
  return entries.map(([id, { name }], i) => {
    const query = results[i]!
    const failed = keys.isError || query.isError
    return {
      circleId: id,
      circleName: name,
      status: failed ? 'error' : query.data ? 'done' : 'pending',
      error: keys.error ?? query.error,
      result: query.data,
      retry: () => void (keys.isError ? keys.refetch() : query.refetch()),
    }
  })
}

/** The delivered checkpoint if it is the log of `circleId` (its origin's last part names the circle). */
function deliveredFor(checkpoint: string | undefined, circleId: string) {
  return checkpoint?.slice(0, checkpoint.indexOf('\n')).endsWith(`/circle/${circleId}`)
    ? checkpoint
    : undefined
}
