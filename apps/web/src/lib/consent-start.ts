import { CONSENT_COOKIE_NAME, hasCookie, type Language } from '@circles/shared'
import { COOKIE_PREFERENCES_EVENT } from '@/lib/shell-events'

let requested = false
let waitingForPreferences = false

function loadConsent() {
  requested = true
  return import('@/lib/consent')
}

/**
 * Starts the cookie consent from the app: its code (vanilla-cookieconsent, its CSS and both languages'
 * texts, about 10 KB brotli) loads at once only for a visitor without the consent cookie, who gets the
 * dialog. A visitor who has chosen (every signed-in screen after the first visit) loads it when
 * "Cookie preferences" is chosen; until then nothing of it is on the wire (docs/decisions/0055). The
 * browser drops the cookie when the choice expires, and the next page asks again.
 */
export function startConsent(language: Language): void {
  if (!hasCookie(document.cookie, CONSENT_COOKIE_NAME)) {
    void loadConsent().then(({ initConsent }) => initConsent(language))
    return
  }
  if (requested || waitingForPreferences) return
  waitingForPreferences = true
  // Once: showConsentPreferences starts the library, whose own listener takes the later requests.
  window.addEventListener(
    COOKIE_PREFERENCES_EVENT,
    () => {
      waitingForPreferences = false
      void loadConsent().then(({ showConsentPreferences }) => showConsentPreferences())
    },
    { once: true },
  )
}

/** Follows the app's language switch, if the consent code is there; otherwise it starts in <html lang>. */
export function followConsentLanguage(language: Language): void {
  if (requested) void loadConsent().then(({ setConsentLanguage }) => setConsentLanguage(language))
}
