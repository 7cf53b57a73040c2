import { supportedLanguage, type Language } from '@circles/shared'
import type { i18n as I18n } from 'i18next'
import { watchSessionExpiry } from '@/lib/session-expiry'

function toLanguage(language: string | undefined): Language {
  return supportedLanguage(language) ?? 'en'
}

let started = false

/**
 * What runs beside React once per page load: the session's expiry timer, and the cookie consent, whose
 * code and texts load after the first paint (the landing page starts the same modules on its own).
 */
export function startShellServices(i18n: I18n): void {
  if (started) return
  started = true
  watchSessionExpiry()
  void import('@/lib/consent').then(({ initConsent, setConsentLanguage }) => {
    void initConsent(toLanguage(i18n.resolvedLanguage ?? i18n.language))
    i18n.on('languageChanged', (language: string) => void setConsentLanguage(toLanguage(language)))
  })
}
