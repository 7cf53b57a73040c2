/**
 * The script of the prerendered pages that hydrate (/login, /register, /contact, /forgot-password,
 * /reset-password; docs/decisions/0007 and 0010). The page arrives ready to paint, on a first visit with
 * the cookie consent dialog in it. After the first paint this entry loads the consent library, which
 * takes the dialog over, and then the app (app/main.tsx, which hydrates the page). Until the app has
 * hydrated, the prerendered forms cannot be sent: their submit buttons are disabled.
 *
 * This entry and the app are one build, so the app's `import('@/lib/consent')` gets this same module
 * instance: its initConsent returns the dialog started here, never a second one.
 */
// Not the packages' index files: what this entry imports is loaded before the page's app starts, and
// the app's shared code must not be (build/chunk-groups.ts).
import { supportedLanguage, type Language } from '@circles/shared/limits'
import { afterNextPaint } from '@/lib/after-paint'
import { loadAppInParts } from '@/load-app'
import { initPwaInstall } from '@/pwa/pwa-install'

// Chrome fires beforeinstallprompt once, soon after load: listen before waiting for anything.
initPwaInstall()

/** The language the page was rendered in (its <html lang>), as app/main.tsx uses for hydration. */
function pageLanguage(): Language {
  return supportedLanguage(document.documentElement.lang) ?? 'en'
}

/** The consent library; it swaps a dialog the page brought for its own in one frame (lib/consent.ts). */
async function startConsent(): Promise<void> {
  const { initConsent } = await import('@/lib/consent')
  await initConsent(pageLanguage())
}

void afterNextPaint()
  // Without the consent the app still starts (and tries the consent again itself).
  .then(() => startConsent().catch(() => undefined))
  .then(loadAppInParts)
