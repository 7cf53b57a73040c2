import { useSyncExternalStore } from 'react'
import { isOffline, subscribeOnlineStatus } from './online-status'

/** True while the device is offline; re-renders when that changes. Prerendering sees online. */
export function useOffline(): boolean {
  return useSyncExternalStore(subscribeOnlineStatus, isOffline, () => false)
}
