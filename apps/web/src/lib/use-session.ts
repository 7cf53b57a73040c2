import { useSyncExternalStore } from 'react'
import { getSession, subscribeSession, type Session } from '@/lib/session'

const SIGNED_OUT: Session = Object.freeze({ token: null, user: null })
/** A signed-in screen's frame (docs/decisions/0065): someone signed in, nobody in particular. */
const SOMEONE: Session = Object.freeze({ token: '', user: null })
let prerendered = SIGNED_OUT
const prerenderedSession = () => prerendered

/**
 * Server rendering only (entry-server.tsx): a signed-in screen's frame is prerendered as someone signed in;
 * a screen rendered with its data (docs/decisions/0068) as the session of its request's cookie.
 */
export function prerenderSignedIn(signedIn: boolean | Session): void {
  prerendered = typeof signedIn === 'object' ? signedIn : signedIn ? SOMEONE : SIGNED_OUT
}

/**
 * The browser, before it hydrates a screen the server rendered with its data for this session
 * (app/main.tsx, docs/decisions/0070): the hydration sees the session the server rendered with.
 */
export function hydrateAs(session: Session): void {
  prerendered = session
}

/**
 * The current session; re-renders on login, logout and changes from other tabs. Prerendering and
 * hydration see a visitor (prerendered pages are the same for everyone), and a signed-in browser
 * switches right after hydrating; a page rendered from scratch (or over a signed-in screen's frame)
 * sees the real session at once.
 */
export function useSession(): Session & { isAuthenticated: boolean } {
  const session = useSyncExternalStore(subscribeSession, getSession, prerenderedSession)
  return { ...session, isAuthenticated: session.token !== null }
}
