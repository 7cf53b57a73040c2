/**
 * The first-visit consent dialog as HTML, for the prerendered form pages (scripts/prerender.mjs runs this
 * at build time, in a happy-dom window). Those pages have no text larger than the dialog, so the dialog
 * is what a visitor's first screen is judged by: sent inside the page, it paints with the page instead of
 * after the consent script. The server keeps it only for requests without a consent cookie
 * (apps/server/src/plugins/spa.ts), and `initConsent` swaps it for the live dialog in one frame.
 */
import type { Language } from '@circles/shared'
import * as CookieConsent from 'vanilla-cookieconsent'
import { consentConfig, PRERENDERED_CONSENT_ATTRIBUTE } from '@/lib/consent'

export async function renderConsentDialog(language: Language): Promise<string> {
  // A build has no visitor: the library's bot check (navigator.webdriver) must not hide the dialog.
  await CookieConsent.run({ ...consentConfig(language), hideFromBots: false })
  const main = document.getElementById('cc-main')
  if (!main) throw new Error('vanilla-cookieconsent rendered no consent dialog')
  // The library adds this class 100 ms after showing the dialog (it starts the fade-in); the page's copy
  // is shown from the first paint, without a fade.
  main.querySelector('.cm-wrapper')?.classList.add('cc--anim')
  main.setAttribute(PRERENDERED_CONSENT_ATTRIBUTE, '')
  const html = main.outerHTML
  CookieConsent.reset(true)
  return html
}
