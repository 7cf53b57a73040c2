import { useSyncExternalStore } from 'react'
import type { StoredString } from '@/lib/storage'

function subscribe(onChange: () => void): () => void {
  window.addEventListener('storage', onChange)
  return () => window.removeEventListener('storage', onChange)
}

/**
 * A value from localStorage, safe for prerendering: the server and the hydrating client both see null
 * first, then the client re-renders with the stored value. Follows changes made in other tabs.
 */
export function useStoredValue(store: StoredString): string | null {
  return useSyncExternalStore(subscribe, store.get, () => null)
}
