import { useSyncExternalStore } from 'react'
import { getSession, subscribeSession, type Session } from '@/lib/session'

/** The current session; re-renders on login, logout and changes from other tabs. */
export function useSession(): Session & { isAuthenticated: boolean } {
  const session = useSyncExternalStore(subscribeSession, getSession, getSession)
  return { ...session, isAuthenticated: session.token !== null }
}
