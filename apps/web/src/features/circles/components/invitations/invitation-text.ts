import { MESSAGES } from '@circles/shared'
import { failureText, translateServerError } from '@/lib/server-errors'

/**
 * A failed invitation action (spec 001 §8): the server's message in the user's language if it sent
 * one (by its key), else the error's own message (e.g. a network failure), else the action's fallback.
 */
export function invitationFailureText(error: unknown, fallback: string = MESSAGES.anErrorOccurred): string {
  return failureText(error, translateServerError(fallback))
}

/**
 * The PNG's name: "invitation-<email>.png", e.g. invitation-ada@example.com.png. Only letters, digits
 * and . _ + - @ stay; anything else (slashes, quotes, spaces) becomes "-", so no address can make a
 * path or an odd name on any system.
 */
export function qrFileName(email: string): string {
  const safe = email
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9@._+-]+/g, '-')
    .replace(/^[.-]+|[.-]+$/g, '')
  return `invitation-${safe || 'invitee'}.png`
}

const DAY_MS = 24 * 60 * 60 * 1000

/** Calendar days from `now` to `iso` in the local time zone (tomorrow = 1). */
export function daysUntil(iso: string, now: Date = new Date()): number {
  const date = new Date(iso)
  const end = new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime()
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime()
  return Math.round((end - start) / DAY_MS)
}
