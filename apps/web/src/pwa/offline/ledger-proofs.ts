import { clear, createStore, get, update, type UseStore } from 'idb-keyval'
import type { RememberedCheckpoint, VerifyDeps } from '@/lib/ledger-verification/verify-circle'

/**
 * The proofs a ledger page's device check built (from tiles, issue 29), kept with the signed checkpoint they prove against
 * (issue 27, docs/decisions/0054): offline, the same check runs again on them, with no server. One entry
 * per circle; proofs against the same tree are merged, a newer tree replaces the entry. Removed when the
 * person signs out (the checkpoint memory of lib/ledger-verification stays, docs/decisions/0019).
 */
export interface StoredProofs {
  circleId: string
  /** The signed checkpoint (note) the proofs are against, its size and root (hex). */
  note: string
  size: number
  rootHash: string
  /** Audit paths by block height. */
  proofs: Record<string, string[]>
  storedAt: string
}

let store: UseStore | undefined
const proofStore = () => (store ??= createStore('circles-offline-ledger', 'proofs'))

export const storedProofs = (circleId: string) => get<StoredProofs>(circleId, proofStore())

export function storeProofs(entry: StoredProofs): Promise<void> {
  return update<StoredProofs>(
    entry.circleId,
    (kept) =>
      kept && kept.size === entry.size && kept.rootHash === entry.rootHash
        ? { ...entry, proofs: { ...kept.proofs, ...entry.proofs } }
        : kept && kept.size > entry.size
          ? kept
          : entry,
    proofStore(),
  )
}

export const clearStoredProofs = () => clear(proofStore())

/** The check could not run offline: nothing, or not this block's proof, is stored on this device. */
export class NotStoredError extends Error {
  constructor() {
    super('not stored on this device')
    this.name = 'NotStoredError'
  }
}

/**
 * The device check's calls answered by what this device stored: the checkpoint the stored proofs are
 * against (after the signature and the memory checks of verifyCircle, as online), the stored proofs.
 * The remembered checkpoint is compared only when it is that same tree's size: a larger one was proven
 * consistent with it online, when it was remembered.
 */
export function offlineDeps(
  keys: string[],
  remembered: (circleId: string) => Promise<RememberedCheckpoint | undefined>,
): VerifyDeps {
  return {
    keys,
    async checkpoint(circleId) {
      const entry = await storedProofs(circleId)
      if (!entry) throw new NotStoredError()
      return entry.note
    },
    consistency() {
      return Promise.reject(new NotStoredError())
    },
    async inclusions(circleId, indexes, size) {
      const entry = await storedProofs(circleId)
      if (!entry || entry.size !== size) throw new NotStoredError()
      return {
        proofs: indexes.map((index) => {
          const proof = entry.proofs[String(index)]
          if (!proof) throw new NotStoredError()
          return { index, proof }
        }),
      }
    },
    async remembered(circleId) {
      const [entry, kept] = await Promise.all([storedProofs(circleId), remembered(circleId)])
      return entry && kept && kept.size === entry.size ? kept : undefined
    },
    remember: () => Promise.resolve(),
  }
}

/**
 * The online calls, recording the inclusion proofs they built (from tiles, issue 29), so a verified
 * check can store them with its checkpoint: the offline check needs the proofs, not the tiles.
 */
export function recordingProofs(deps: VerifyDeps): { deps: VerifyDeps; recorded: Record<string, string[]> } {
  const recorded: Record<string, string[]> = {}
  return {
    recorded,
    deps: {
      ...deps,
      inclusions: async (circleId, indexes, size, rootHash) => {
        const answer = await deps.inclusions(circleId, indexes, size, rootHash)
        for (const { index, proof } of answer.proofs) recorded[String(index)] = proof
        return answer
      },
    },
  }
}
