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

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0))

/**
 * Evaluating the app's modules is the longest work on these pages. The modules that bring the big
 * libraries (each library in a chunk of its own, vite.config.ts) go first, each in a task of its own, so
 * that no single task keeps the page from answering for long. Our modules, not the libraries: importing
 * a library's namespace would keep all of it in the bundle.
 */
const APP_PARTS = [
  () => import('react-dom/client'),
  () => import('@/lib/zod-config'),
  () => import('@/lib/i18n'),
  () => import('@/app/router'),
  () => import('@/app/providers'),
]

async function startApp(): Promise<void> {
  for (const load of APP_PARTS) {
    await load()
    await nextTask()
  }
  await import('@/app/main')
}

void afterNextPaint()
  // Without the consent the app still starts (and tries the consent again itself).
  .then(() => startConsent().catch(() => undefined))
  .then(startApp)
