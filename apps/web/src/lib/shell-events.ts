/**
 * Window events that connect pages without React (the static landing page) to the app-wide modules:
 * any page dispatches them, the consent and install modules listen. Plain strings, so a page can
 * dispatch them without importing the module that answers.
 */

/** Opens the cookie preferences dialog (lib/consent.ts). */
export const COOKIE_PREFERENCES_EVENT = 'circles:cookie-preferences'
/** Shows the install prompt, or the instructions where there is none (lib/pwa-install.ts). */
export const INSTALL_APP_EVENT = 'circles:install-app'

export function requestCookiePreferences(): void {
  window.dispatchEvent(new CustomEvent(COOKIE_PREFERENCES_EVENT))
}

/** Call it from the click handler itself: the browser's install prompt needs the user's gesture. */
export function requestAppInstall(): void {
  window.dispatchEvent(new CustomEvent(INSTALL_APP_EVENT))
}

/** Opens the scan dialog (features/scan, mounted by the app layout; issue 27). */
export const SCAN_EVENT = 'circles:scan'

export function requestScan(): void {
  window.dispatchEvent(new CustomEvent(SCAN_EVENT))
}
