import type { QueryClient } from '@tanstack/react-query'
import { getSession, onLogout } from '@/lib/session'
import { within } from '@/lib/within'
import { clearOfflineData } from './clear'
import { persistQueriesOnChange, restoreQueryCache } from './persist'

/** A slow IndexedDB must not hold the first render longer than this. */
const RESTORE_BUDGET_MS = 1500

let started = false

/**
 * Before the first render (main.tsx): the signed-in person's stored queries into the client, or, with
 * nobody signed in, everything stored removed (a session that expired while the app was closed).
 * Then: the cache written on changes, and cleared on every logout.
 */
export async function startOfflineReading(queryClient: QueryClient): Promise<void> {
  if (started) return
  started = true
  onLogout(() => void clearOfflineData())
  persistQueriesOnChange(queryClient, () => getSession().user?.id ?? null)
  const userId = getSession().user?.id
  const work = userId ? restoreQueryCache(queryClient, userId).then(() => undefined) : clearOfflineData()
  await within(
    work.catch(() => undefined),
    RESTORE_BUDGET_MS,
  )
}
