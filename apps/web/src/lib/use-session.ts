import { useSyncExternalStore } from 'react'
import { getSession, subscribeSession, type Session } from '@/lib/session'

const SIGNED_OUT: Session = Object.freeze({ token: null, user: null })
const signedOut = () => SIGNED_OUT

/**
 * The current session; re-renders on login, logout and changes from other tabs. Prerendering and
 * hydration see a visitor (prerendered pages are the same for everyone), and a signed-in browser
 * switches right after hydrating; a page rendered from scratch sees the real session at once.
 */
export function useSession(): Session & { isAuthenticated: boolean } {
  const session = useSyncExternalStore(subscribeSession, getSession, signedOut)
  return { ...session, isAuthenticated: session.token !== null }
}
