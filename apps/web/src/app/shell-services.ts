import { supportedLanguage, type Language } from '@circles/shared'
import type { i18n as I18n } from 'i18next'
import { navigateTo } from '@/app/outside-navigation'
import { followConsentLanguage, startConsent } from '@/lib/consent-start'
import { queryClient } from '@/lib/query-client'
import { getSession, subscribeSession } from '@/lib/session'
import { watchSessionExpiry } from '@/lib/session-expiry'
import { registerServiceWorker } from '@/pwa/register'

function toLanguage(language: string | undefined): Language {
  return supportedLanguage(language) ?? 'en'
}

let started = false

/** The real-time connection's code loads with the first session, not for visitors of public pages. */
function startRealtimeWhenSignedIn(): void {
  const start = () => {
    if (!getSession().token) return
    stop()
    void import('@/lib/realtime/realtime').then(({ startRealtime }) =>
      startRealtime({ queryClient, navigate: navigateTo }),
    )
  }
  const stop = subscribeSession(start)
  start()
}

/**
 * What runs beside React once per page load: the service worker's registration, the session's expiry
 * timer, the real-time connection (lib/realtime), and the cookie consent, whose code and texts load after the first paint, and only when
 * the visitor has not chosen yet (lib/consent-start.ts; the landing page starts the same modules on its own).
 */
export function startShellServices(i18n: I18n): void {
  if (started) return
  started = true
  registerServiceWorker()
  watchSessionExpiry()
  startRealtimeWhenSignedIn()
  void import('@/lib/report-time-zone').then(({ reportTimeZone }) => reportTimeZone())
  startConsent(toLanguage(i18n.resolvedLanguage ?? i18n.language))
  i18n.on('languageChanged', (language: string) => followConsentLanguage(toLanguage(language)))
}
