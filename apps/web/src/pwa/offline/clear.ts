import { clearPersistedQueries } from './persist'
import { clearStoredProofs } from './ledger-proofs'
import { clearKeptTiles } from '@/lib/ledger-verification/tile-cache'

/** The service worker's page caches (vite.config.ts / src/pwa/sw.ts): the pages a person visited. */
export const PAGE_CACHE_PREFIX = 'circles-pages'

/**
 * Everything offline reading kept of the person on this device: the stored queries, the ledger proofs
 * and tiles (docs/decisions/0060) and the pages the service worker cached. Runs on every logout (button, expiry, 401, another tab,
 * account deletion) and on a start without a session. Failures are swallowed: each part is tried.
 */
export async function clearOfflineData(): Promise<void> {
  const pageCaches = async () => {
    if (typeof caches === 'undefined') return
    const names = await caches.keys()
    await Promise.all(names.filter((n) => n.startsWith(PAGE_CACHE_PREFIX)).map((n) => caches.delete(n)))
  }
  await Promise.allSettled([clearPersistedQueries(), clearStoredProofs(), clearKeptTiles(), pageCaches()])
}
