import { useSyncExternalStore } from 'react'
import { getSession, subscribeSession, type Session } from '@/lib/session'

const SIGNED_OUT: Session = Object.freeze({ token: null, user: null })
/** A signed-in screen's frame (docs/decisions/0065): someone signed in, nobody in particular. */
const SOMEONE: Session = Object.freeze({ token: '', user: null })
let prerendered = SIGNED_OUT
const prerenderedSession = () => prerendered

/**
 * The session a render on the server sees, and the hydration of it in the browser. The server
 * (entry-server.tsx): a signed-in screen's frame is prerendered as someone signed in; a screen rendered
 * with its data (docs/decisions/0068) as the session of its request's cookie. The browser, before it
 * hydrates such a screen (app/main.tsx, docs/decisions/0070): the session it was rendered for.
 */
export function prerenderSignedIn(signedIn: boolean | Session): void {
  prerendered = typeof signedIn === 'object' ? signedIn : signedIn ? SOMEONE : SIGNED_OUT
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
