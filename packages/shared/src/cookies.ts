/** The consent library's cookie (vanilla-cookieconsent, apps/web/src/lib/consent.ts). */
export const CONSENT_COOKIE_NAME = 'cc_cookie'

/** Whether a Cookie header (or `document.cookie`) holds a cookie of this name. */
export function hasCookie(cookies: string | undefined, name: string): boolean {
  return (cookies ?? '').split(';').some((part) => part.trim().startsWith(`${name}=`))
}
