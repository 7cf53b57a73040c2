/**
 * The script of the prerendered pages that hydrate (/login, /register, /contact, /forgot-password,
 * /reset-password; docs/decisions/0007-prerendered-public-pages.md). On a first visit the cookie consent
 * dialog is the largest thing on these pages: it starts here, from a few KB, and the app (app/main.tsx,
 * which hydrates the page) loads once the dialog has painted, instead of the dialog waiting for the app.
 * Until the app has hydrated, the prerendered forms cannot be sent: their submit buttons are disabled.
 * A visitor who has chosen already gets the app at once.
 *
 * This entry and the app are one build, so the app's `import('@/lib/consent')` gets this same module
 * instance: its initConsent returns the dialog started here, never a second one.
 */
import { LANGUAGES, type Language } from '@circles/shared'
import { afterNextPaint } from '@/lib/after-paint'
import { hasConsentCookie } from '@/lib/consent-cookie'
import { initPwaInstall } from '@/lib/pwa-install'

// Chrome fires beforeinstallprompt once, soon after load: listen before waiting for anything.
initPwaInstall()

/** The language the page was rendered in (its <html lang>), as app/main.tsx uses for hydration. */
function pageLanguage(): Language {
  const lang = document.documentElement.lang.toLowerCase().split('-')[0] ?? ''
  return (LANGUAGES as readonly string[]).includes(lang) ? (lang as Language) : 'en'
}

/** vanilla-cookieconsent inserts its dialog invisible and starts fading it in this much later. */
const CONSENT_FADE_IN_DELAY_MS = 100

/** Resolves once the consent dialog, if it is open, has been painted: after its fade-in has started. */
async function consentDialogPainted(): Promise<void> {
  if (!document.documentElement.classList.contains('show--consent')) return
  if (document.visibilityState === 'hidden') return
  await new Promise((resolve) => setTimeout(resolve, CONSENT_FADE_IN_DELAY_MS))
  await afterNextPaint()
}

// The prerendered page paints first; then the consent loads.
const consentShown = afterNextPaint()
  .then(() => import('@/lib/consent'))
  .then(({ initConsent }) => initConsent(pageLanguage()))
  .then(consentDialogPainted)
  // Without the dialog the app still starts (and tries the consent again itself).
  .catch(() => undefined)

void (hasConsentCookie() ? Promise.resolve() : consentShown).then(() => import('@/app/main'))
