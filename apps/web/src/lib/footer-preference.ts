import { useSyncExternalStore } from 'react'
import { footerVisible, STORAGE_KEYS } from '@/lib/session'

/**
 * The footer show/hide choice (spec 000 §2/§3: footerVisible, visible by default) as a store the
 * header's toggle and the layout share; remembered in localStorage and followed across tabs.
 */
const listeners = new Set<() => void>()

function notify(): void {
  for (const listener of listeners) listener()
}

export function setFooterVisible(visible: boolean): void {
  footerVisible.set(visible)
  notify()
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEYS.footerVisible || event.key === null) listener()
  }
  window.addEventListener('storage', onStorage)
  return () => {
    listeners.delete(listener)
    window.removeEventListener('storage', onStorage)
  }
}

/**
 * The stored choice. Server rendering and hydration see the default (visible), so prerendered HTML and
 * the first client render agree; the stored value applies right after.
 */
export function useFooterVisible(): boolean {
  return useSyncExternalStore(subscribe, footerVisible.get, () => true)
}
