/**
 * The consent library's cookie (lib/consent.ts), in a module without dependencies: the entry of the
 * prerendered form pages checks for it before the library has loaded.
 */
export const CONSENT_COOKIE_NAME = 'cc_cookie'

/** Whether the visitor's browser holds a consent choice; lib/consent.ts decides whether it is valid. */
export function hasConsentCookie(cookies: string = document.cookie): boolean {
  return cookies.split(';').some((part) => part.trim().startsWith(`${CONSENT_COOKIE_NAME}=`))
}
