import { ZTimeZoneResponse } from '@circles/shared'
import { api } from '@/lib/api-client'
import { getSession, subscribeSession, updateSessionUser } from '@/lib/session'

/** The browser's IANA time zone, or null where Intl cannot tell. */
export function browserTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null
  } catch {
    return null
  }
}

/**
 * Issue 26 (docs/decisions/0049): tells the server the browser's time zone when it differs from the one
 * stored with the account, on sign-in and on app start, so "on the day" reminders come at 08:00 where
 * the person is. Once per account and zone per page load; a refusal (an unknown zone) is left alone.
 */
export function reportTimeZone(zone: string | null = browserTimeZone()): () => void {
  const tried = new Set<string>()
  const check = () => {
    const { token, user } = getSession()
    if (!token || !user || !zone || user.timeZone === zone) return
    const key = `${user.id}:${zone}`
    if (tried.has(key)) return
    tried.add(key)
    api
      .put('/users/me/time-zone', { timeZone: zone }, ZTimeZoneResponse)
      .then(({ timeZone }) => {
        const current = getSession().user
        if (current?.id === user.id) updateSessionUser({ ...current, timeZone })
      })
      .catch(() => undefined)
  }
  const stop = subscribeSession(check)
  check()
  return stop
}
