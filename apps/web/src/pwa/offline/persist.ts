import { dehydrate, hydrate, type DehydratedState, type Query, type QueryClient } from '@tanstack/react-query'
import { clear, createStore, del, get, keys, set, type UseStore } from 'idb-keyval'

/**
 * TanStack Query's cache on this device (issue 27, docs/decisions/0054), so the reading pages open
 * offline: IndexedDB (no 5 MB limit as in localStorage), one entry per signed-in person under their id,
 * written a moment after the cache changes and read back before the app first renders.
 *
 * The installed @tanstack/react-query is 5.108.0 and @tanstack/react-query-persist-client has no
 * 5.108.0 (the registry's newest is 5.104.5, which pins query-core 5.104.5: a second copy of the
 * core). What it does is dehydrate, a store, hydrate, a buster and a maxAge: done here on the installed
 * core's own dehydrate/hydrate.
 */

/** A week: a device that was offline longer shows nothing rather than something that old. */
export const PERSIST_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000
/** Writes at most this often while queries keep changing. */
const THROTTLE_MS = 1000

/** The build: a cache written by another build of the app is dropped (its data's shape may differ). */
export const BUILD_ID: string = (import.meta.env.VITE_BUILD_ID as string | undefined) ?? 'dev'

export interface PersistedCache {
  buster: string
  userId: string
  timestamp: number
  clientState: DehydratedState
}

/** The query key roots of the pages that open offline: dashboard, circles and circle, items, item, ledger. */
const READING_ROOTS = new Set(['dashboard', 'circles', 'items', 'blocks'])

/**
 * Which queries are kept: the reading pages' data that loaded, and the ledger's verifier keys; not the
 * device check's results (offline it runs again, on the stored proofs) nor anything else.
 */
export function shouldPersistQuery(query: Pick<Query, 'queryKey' | 'state'>): boolean {
  if (query.state.status !== 'success') return false
  const [root, second] = query.queryKey
  if (root === 'ledger') return second === 'keys'
  return typeof root === 'string' && READING_ROOTS.has(root)
}

let store: UseStore | undefined
const cacheStore = () => (store ??= createStore('circles-offline', 'query-cache'))

/** The entry of one person: another person signing in on this device reads their own, or nothing. */
export const cacheKey = (userId: string) => `person:${userId}`

export async function readPersistedCache(userId: string): Promise<PersistedCache | undefined> {
  return get<PersistedCache>(cacheKey(userId), cacheStore())
}

/**
 * Puts the signed-in person's stored queries into the client, unless they are from another build,
 * older than PERSIST_MAX_AGE_MS or not theirs; entries of anyone else on this device are removed.
 */
export async function restoreQueryCache(
  queryClient: QueryClient,
  userId: string,
  now: number = Date.now(),
): Promise<boolean> {
  const ours = cacheKey(userId)
  const stored = await keys<string>(cacheStore())
  await Promise.all(stored.filter((key) => key !== ours).map((key) => del(key, cacheStore())))
  const cached = await readPersistedCache(userId)
  if (!cached) return false
  if (cached.buster !== BUILD_ID || cached.userId !== userId || now - cached.timestamp > PERSIST_MAX_AGE_MS) {
    await del(ours, cacheStore())
    return false
  }
  hydrate(queryClient, cached.clientState)
  // Shown at once, but never taken for fresh: with a connection every page asks the server again when
  // it mounts (a reload within staleTime would otherwise show what the device stored, not what is).
  await queryClient.invalidateQueries({ refetchType: 'none' })
  return true
}

export async function persistQueryCache(
  queryClient: QueryClient,
  userId: string,
  now: number = Date.now(),
): Promise<void> {
  const clientState = dehydrate(queryClient, { shouldDehydrateQuery: shouldPersistQuery })
  const entry: PersistedCache = { buster: BUILD_ID, userId, timestamp: now, clientState }
  await set(cacheKey(userId), entry, cacheStore())
}

/**
 * Writes the cache a moment after each change, for whoever `currentUserId` names then (nothing when
 * signed out). Returns the unsubscribe.
 */
export function persistQueriesOnChange(
  queryClient: QueryClient,
  currentUserId: () => string | null,
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined
  const write = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    const userId = currentUserId()
    if (userId) void persistQueryCache(queryClient, userId).catch(() => undefined)
  }
  const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' && event.type !== 'removed') return
    timer ??= setTimeout(write, THROTTLE_MS)
  })
  // A page left (or the app put away) within the throttle still writes what it fetched.
  const flush = () => {
    if (timer !== undefined) write()
  }
  const onVisibility = () => {
    if (document.visibilityState === 'hidden') flush()
  }
  if (typeof window !== 'undefined') {
    window.addEventListener('pagehide', flush)
    document.addEventListener('visibilitychange', onVisibility)
  }
  return () => {
    if (timer !== undefined) clearTimeout(timer)
    unsubscribe()
    if (typeof window !== 'undefined') {
      window.removeEventListener('pagehide', flush)
      document.removeEventListener('visibilitychange', onVisibility)
    }
  }
}

/** Removes every person's stored queries. */
export const clearPersistedQueries = () => clear(cacheStore())
