/**
 * The only script of the static public pages (/, /about, /privacy, /terms). The pages themselves are
 * prerendered HTML; this adds their behaviour without React, so they paint at once and download a few
 * KB instead of the app (docs/decisions/0007-prerendered-public-pages.md).
 */
import { enhanceLanding } from '@/features/landing/enhance'
import { landingRedirect } from '@/features/landing/landing-redirect'
import { getSession } from '@/lib/session'
import { startStaticPageShell } from '@/lib/static-page-shell'
import { registerServiceWorker } from '@/pwa/register'

// Spec 000 §2: a signed-in visitor of the landing page goes straight to the dashboard.
const redirect = landingRedirect(location.pathname, getSession())
if (redirect) {
  window.location.replace(redirect)
} else {
  enhanceLanding()
  void startStaticPageShell()
  // These pages load no app: the worker may register on load, as it always did here.
  if (document.readyState === 'complete') registerServiceWorker()
  else window.addEventListener('load', registerServiceWorker, { once: true })
}
