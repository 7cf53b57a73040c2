import { LANGUAGES, LIMITS, type Language, SESSION_COOKIE_NAME, type TUser } from '@circles/shared'
import { readItem, removeItem, storedString, writeItem } from '@/lib/storage'

/** The browser session of spec 000 §3/§4. Keys are part of the contract with existing browsers: keep them. */
export const STORAGE_KEYS = {
  token: 'token',
  user: 'user',
  userId: 'userId',
  footerVisible: 'footerVisible',
  verificationEmail: 'verification_email',
  invitationEmail: 'invitation_email',
  pendingInvitationToken: 'pending_invitation_token',
  returnUrl: 'returnUrl',
  tempVerificationToken: 'temp_verification_token',
  language: 'language',
} as const

export interface Session {
  token: string | null
  user: TUser | null
}

export interface LogoutEvent {
  /** Why the session ended when it was not the user's choice, e.g. the expired-token message. */
  reason?: string
}

const SIGNED_OUT: Session = Object.freeze({ token: null, user: null })

/** The JWT payload, or null unless the token is three dot-separated parts with a JSON object in the middle. */
export function decodeTokenPayload(token: string): Record<string, unknown> | null {
  const parts = token.split('.')
  if (parts.length !== 3 || parts.some((part) => part.length === 0)) return null
  try {
    const base64 = parts[1]!.replace(/-/g, '+').replace(/_/g, '/')
    const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='))
    // atob yields one char per byte; names in the payload may be UTF-8.
    const json = new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)))
    const payload: unknown = JSON.parse(json)
    return typeof payload === 'object' && payload !== null && !Array.isArray(payload)
      ? (payload as Record<string, unknown>)
      : null
  } catch {
    return null
  }
}

/** True when the `exp` claim (seconds) has passed. An unreadable token counts as expired: no server accepts it. */
export function isTokenExpired(token: string, nowMs: number = Date.now()): boolean {
  const payload = decodeTokenPayload(token)
  if (!payload) return true
  return typeof payload.exp === 'number' && payload.exp * 1000 <= nowMs
}

function parseUser(raw: string | null): TUser | null {
  if (!raw) return null
  try {
    const user: unknown = JSON.parse(raw)
    // A shape check, not a full schema: keeps zod out of the first download.
    if (typeof user === 'object' && user !== null && typeof (user as { id?: unknown }).id === 'string') {
      return user as TUser
    }
  } catch {
    // Corrupt JSON: treated like no user.
  }
  return null
}

function clearAuthStorage(): void {
  removeItem(STORAGE_KEYS.token)
  removeItem(STORAGE_KEYS.user)
  removeItem(STORAGE_KEYS.userId)
  writeSessionCookie(null)
}

/**
 * Mirrors the stored token into a cookie that lives as long as the token, so that the request for a
 * signed-in screen's page carries it and the server can send that screen rendered with its data
 * (docs/decisions/0068). Written here, not by the server: a sign-out clears it at once, offline too, as it
 * clears the storage. SameSite=Strict: another site's link loads the screen as before, without it.
 */
function writeSessionCookie(token: string | null): void {
  if (typeof document === 'undefined') return
  const exp = token ? decodeTokenPayload(token)?.exp : undefined
  const maxAge = typeof exp === 'number' ? Math.max(0, Math.floor(exp - Date.now() / 1000)) : 0
  const secure = location.protocol === 'https:' ? '; Secure' : ''
  const value = maxAge > 0 && token ? token : ''
  document.cookie = `${SESSION_COOKIE_NAME}=${value}; Path=/; Max-Age=${maxAge}; SameSite=Strict${secure}`
}

/**
 * The stored session. `clearInvalid` removes an expired or half-written one from storage: right on
 * load, but not while another tab writes it (its token may arrive here before its user does).
 */
function readSession(clearInvalid = true): Session {
  const token = readItem(STORAGE_KEYS.token)
  if (!token) return SIGNED_OUT
  const user = parseUser(readItem(STORAGE_KEYS.user))
  if (isTokenExpired(token) || !user) {
    if (clearInvalid) clearAuthStorage()
    return SIGNED_OUT
  }
  return { token, user }
}

let current: Session = readSession()
// A session from before the cookie (or one whose cookie the browser dropped) gets it now; a cookie left
// without its session (the storage cleared alone) goes.
writeSessionCookie(current.token)
const listeners = new Set<() => void>()
const logoutListeners = new Set<(event: LogoutEvent) => void>()
let pendingLogout: Promise<void> | null = null

function publish(next: Session): void {
  current = next
  for (const listener of listeners) listener()
}

/** The current session; the same object until it changes (safe for useSyncExternalStore). */
export function getSession(): Session {
  return current
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** Runs after every logout: clear caches, disconnect the socket, tell the user why. */
export function onLogout(listener: (event: LogoutEvent) => void): () => void {
  logoutListeners.add(listener)
  return () => logoutListeners.delete(listener)
}

/**
 * Server rendering only (entry-server.tsx `renderScreen`): the session a screen is rendered for, from its
 * request's cookie; nothing is stored.
 */
export function renderForSession(session: Session): void {
  current = session
}

/** Re-reads storage, clearing an expired or malformed session. Runs on load and when another tab changes it. */
export function restoreSession(): Session {
  publish(readSession())
  return current
}

/** Stores what login or registration returned. */
export function startSession(token: string, user: TUser): void {
  writeItem(STORAGE_KEYS.token, token)
  writeSessionCookie(token)
  writeItem(STORAGE_KEYS.user, JSON.stringify(user))
  writeItem(STORAGE_KEYS.userId, user.id)
  publish({ token, user })
}

/** Replaces the stored user, e.g. after a status check finds the email verified. */
export function updateSessionUser(user: TUser): void {
  if (!current.token) return
  writeItem(STORAGE_KEYS.user, JSON.stringify(user))
  writeItem(STORAGE_KEYS.userId, user.id)
  publish({ token: current.token, user })
}

function endSession(event: LogoutEvent): void {
  clearAuthStorage()
  publish(SIGNED_OUT)
  for (const listener of logoutListeners) listener(event)
}

/** The pending end: unconditional (a deliberate logout, an expired token) or only for these tokens. */
let pendingFor: { always: boolean; tokens: Set<string> } | null = null

/** True while `token` is the session's token, here and in storage (another tab may have signed in). */
function isCurrentToken(token: string): boolean {
  return current.token === token && (readItem(STORAGE_KEYS.token) ?? token) === token
}

function scheduleLogout(reason: string | undefined, token?: string): Promise<void> {
  pendingFor ??= { always: false, tokens: new Set() }
  if (token === undefined) pendingFor.always = true
  else pendingFor.tokens.add(token)
  pendingLogout ??= new Promise((resolve) => {
    setTimeout(() => {
      const ending = pendingFor
      pendingLogout = null
      pendingFor = null
      // A 401 ends only the session whose token it answered: a new session started meanwhile stays.
      if (ending?.always || [...(ending?.tokens ?? [])].some(isCurrentToken)) {
        endSession(reason === undefined ? {} : { reason })
      }
      resolve()
    }, LIMITS.logoutDelayMs)
  })
  return pendingLogout
}

/**
 * Ends the session after LIMITS.logoutDelayMs (spec 000 §4), so a burst of 401s from parallel
 * requests ends it once. Resolves when the session is cleared.
 */
export function logout(reason?: string): Promise<void> {
  return scheduleLogout(reason)
}

/**
 * A 401 answered a request sent with `token`: ends the session only if that token is still the
 * session's, now and when the delay is over. A late answer to a request from before a new sign-in,
 * in this tab or another, leaves the new session alone (docs/decisions/0028).
 */
export function logoutForRejectedToken(token: string): Promise<void> {
  if (!isCurrentToken(token)) return Promise.resolve()
  return scheduleLogout(undefined, token)
}

if (typeof window !== 'undefined') {
  // Logging out or in another tab applies here too.
  window.addEventListener('storage', (event) => {
    if (event.key !== null && event.key !== STORAGE_KEYS.token && event.key !== STORAGE_KEYS.user) return
    const wasSignedIn = current.token !== null
    // Read only: a sign-in in another tab writes its token, then its user; clearing the token seen
    // without its user would end that new session there (issue 23).
    publish(readSession(false))
    const next = current
    if (wasSignedIn && !next.token) for (const listener of logoutListeners) listener({})
  })
}

/** The other values of spec 000 §3, each under its historical key. */
export const verificationEmail = storedString(STORAGE_KEYS.verificationEmail)
export const invitationEmail = storedString(STORAGE_KEYS.invitationEmail)
export const pendingInvitationToken = storedString(STORAGE_KEYS.pendingInvitationToken)
export const returnUrl = storedString(STORAGE_KEYS.returnUrl)
export const tempVerificationToken = storedString(STORAGE_KEYS.tempVerificationToken)

/** Footer visibility; visible unless the user hid it. */
export const footerVisible = {
  get: (): boolean => readItem(STORAGE_KEYS.footerVisible) !== 'false',
  set: (visible: boolean): void => writeItem(STORAGE_KEYS.footerVisible, String(visible)),
}

/** The language the user picked explicitly; null when they never chose (then the browser decides). */
export const storedLanguage = {
  get: (): Language | null => {
    const value = readItem(STORAGE_KEYS.language)
    return (LANGUAGES as readonly string[]).includes(value ?? '') ? (value as Language) : null
  },
  set: (language: Language): void => writeItem(STORAGE_KEYS.language, language),
}
