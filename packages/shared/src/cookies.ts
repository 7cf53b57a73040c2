/** The consent library's cookie (vanilla-cookieconsent, apps/web/src/lib/consent.ts). */
export const CONSENT_COOKIE_NAME = 'cc_cookie'

/** Whether a Cookie header (or `document.cookie`) holds a cookie of this name. */
export function hasCookie(cookies: string | undefined, name: string): boolean {
  return (cookies ?? '').split(';').some((part) => part.trim().startsWith(`${name}=`))
}

/**
 * The session's token, mirrored from the browser's storage by the app (apps/web/src/lib/session-cookie.ts)
 * so that a signed-in screen's page request carries it: the server reads it only to render that page with
 * its data (docs/decisions/0068), never to authorize an API call.
 */
export const SESSION_COOKIE_NAME = 'circles_session'

/** A cookie's value from a Cookie header, or undefined. */
export function readCookie(cookies: string | undefined, name: string): string | undefined {
  for (const part of (cookies ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=')
    if (key === name) return value.join('=')
  }
  return undefined
}
