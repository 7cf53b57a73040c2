import { MESSAGES } from '@circles/shared'
import { decodeTokenPayload, getSession, logout, subscribeSession } from '@/lib/session'

/** setTimeout's ceiling (about 24.8 days); a later expiry is re-checked when the timer fires. */
const MAX_TIMER_MS = 2_147_483_647

/** The token's `exp` in milliseconds, or null when it has none. */
export function tokenExpiresAt(token: string): number | null {
  const exp = decodeTokenPayload(token)?.exp
  return typeof exp === 'number' ? exp * 1000 : null
}

/**
 * Ends the session when its token expires while the app is open (spec 000 §8: "Authentication token
 * has expired. Please log in again." and logout), even if no request would notice. A tab that slept
 * past the expiry checks again when it becomes visible. Returns the cleanup.
 */
export function watchSessionExpiry(): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined

  const check = () => {
    clearTimeout(timer)
    const { token } = getSession()
    if (!token) return
    const expiresAt = tokenExpiresAt(token)
    if (expiresAt === null) return
    const remaining = expiresAt - Date.now()
    if (remaining <= 0) {
      void logout(MESSAGES.tokenExpired)
      return
    }
    timer = setTimeout(check, Math.min(remaining, MAX_TIMER_MS))
  }

  check()
  const unsubscribe = subscribeSession(check)
  const onVisible = () => {
    if (document.visibilityState === 'visible') check()
  }
  document.addEventListener('visibilitychange', onVisible)
  return () => {
    clearTimeout(timer)
    unsubscribe()
    document.removeEventListener('visibilitychange', onVisible)
  }
}
