/**
 * Cookie consent (spec 000 §2-§4, §9) with vanilla-cookieconsent: no framework, so the static landing
 * page and the React app share it. Necessary cookies are always on; analytics is off until the visitor
 * says yes. The choice lives in the library's cookie for LIMITS.cookieConsentDays and is mirrored into
 * the local consent record (lib/consent-record.ts) that analytics reads.
 */
import 'vanilla-cookieconsent/dist/cookieconsent.css'
import '@/lib/consent.css'
import { CONSENT_COOKIE_NAME, LANGUAGES, LIMITS, supportedLanguage, type Language } from '@circles/shared'
import * as CookieConsent from 'vanilla-cookieconsent'
import { clearConsentRecord, writeConsentRecord } from '@/lib/consent-record'
import { COOKIE_PREFERENCES_EVENT } from '@/lib/shell-events'
import germanConsentTexts from '@/locales/de/consent.json'
import englishConsentTexts from '@/locales/en/consent.json'

export type ConsentTexts = typeof englishConsentTexts

export const ANALYTICS_CATEGORY = 'analytics'
/** Marks the dialog a prerendered page brings along (lib/consent-prerender.ts). */
export const PRERENDERED_CONSENT_ATTRIBUTE = 'data-prerendered'

/**
 * Cookies an analytics service may set, removed when analytics is declined or withdrawn. None is
 * configured yet; these are the common ones, so a provider added later is covered from day one.
 */
export const ANALYTICS_COOKIES: RegExp[] = [/^_ga/, /^_gid$/, /^_pk_/, /^_clck$/, /^_clsk$/]

/**
 * Both languages ship in this chunk (about 2 KB gzip): on a first visit the dialog is the page's
 * largest paint, and a separate texts request would put one more round trip before it.
 */
const TEXTS: Record<Language, ConsentTexts> = { en: englishConsentTexts, de: germanConsentTexts }

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

/** The library renders these strings as HTML: everything but our own links is escaped. */
export function consentTranslation(texts: ConsentTexts): CookieConsent.Translation {
  const privacy = `<a href="/privacy">${escapeHtml(texts.links.privacy)}</a>`
  const terms = `<a href="/terms">${escapeHtml(texts.links.terms)}</a>`
  const { consentModal: cm, preferencesModal: pm } = texts
  return {
    consentModal: {
      label: cm.label,
      title: escapeHtml(cm.title),
      description: escapeHtml(cm.description),
      acceptAllBtn: escapeHtml(cm.acceptAll),
      acceptNecessaryBtn: escapeHtml(cm.rejectAll),
      showPreferencesBtn: escapeHtml(cm.showPreferences),
      footer: `${privacy}\n${terms}`,
    },
    preferencesModal: {
      title: escapeHtml(pm.title),
      acceptAllBtn: escapeHtml(pm.acceptAll),
      acceptNecessaryBtn: escapeHtml(pm.rejectAll),
      savePreferencesBtn: escapeHtml(pm.save),
      closeIconLabel: pm.close,
      serviceCounterLabel: pm.serviceCounter,
      sections: [
        { title: escapeHtml(pm.intro.title), description: escapeHtml(pm.intro.description) },
        {
          title: escapeHtml(pm.necessary.title),
          description: escapeHtml(pm.necessary.description),
          linkedCategory: 'necessary',
        },
        {
          title: escapeHtml(pm.analytics.title),
          description: escapeHtml(pm.analytics.description),
          linkedCategory: ANALYTICS_CATEGORY,
        },
        {
          title: escapeHtml(pm.more.title),
          description: escapeHtml(pm.more.description)
            .replace('{{privacy}}', privacy)
            .replace('{{terms}}', terms),
        },
      ],
    },
  }
}

export function consentConfig(language: Language): CookieConsent.CookieConsentConfig {
  const translations: Record<string, CookieConsent.Translation> = {}
  for (const lang of LANGUAGES) translations[lang] = consentTranslation(TEXTS[lang])
  return {
    mode: 'opt-in',
    autoShow: true,
    // Declining must also remove what analytics left behind (spec 000 §4).
    autoClearCookies: true,
    disablePageInteraction: false,
    cookie: {
      name: CONSENT_COOKIE_NAME,
      expiresAfterDays: LIMITS.cookieConsentDays,
      sameSite: 'Lax',
      path: '/',
      // The library defaults to Secure; plain-http development on another host would then lose the choice.
      secure: typeof location !== 'undefined' && location.protocol === 'https:',
    },
    guiOptions: {
      consentModal: { layout: 'box', position: 'bottom right', equalWeightButtons: true, flipButtons: false },
      preferencesModal: { layout: 'box', equalWeightButtons: true, flipButtons: false },
    },
    categories: {
      necessary: { enabled: true, readOnly: true },
      [ANALYTICS_CATEGORY]: {
        enabled: false,
        readOnly: false,
        autoClear: { cookies: ANALYTICS_COOKIES.map((name) => ({ name })), reloadPage: false },
      },
    },
    language: { default: language, translations },
    onFirstConsent: () => syncConsentRecord(),
    onConsent: () => syncConsentRecord(),
    onChange: () => syncConsentRecord(),
  }
}

/** Mirrors the library's cookie into the local record; no valid choice means no record (analytics off). */
export function syncConsentRecord(): void {
  if (!CookieConsent.validConsent()) {
    clearConsentRecord()
    return
  }
  const cookie = CookieConsent.getCookie()
  const when = cookie.lastConsentTimestamp || cookie.consentTimestamp
  writeConsentRecord(
    { analytics: CookieConsent.acceptedCategory(ANALYTICS_CATEGORY), marketing: false },
    when ? new Date(when) : new Date(),
  )
}

/**
 * A prerendered page may bring the first-visit dialog (lib/consent-prerender.ts) and the `show--consent`
 * class. Called right after `run()`, before the browser paints again: the library's own dialog takes the
 * copy's place without a fade (it is shown at once, like the copy), or, when the library shows none
 * (the visitor has chosen, or is a bot), the copy and the class go.
 */
function replacePrerenderedDialog(): void {
  const copy = document.querySelector(`#cc-main[${PRERENDERED_CONSENT_ATTRIBUTE}]`)
  if (!copy) return
  copy.remove()
  const live = document.querySelector('#cc-main .cm-wrapper')
  if (live) live.classList.add('cc--anim')
  else document.documentElement.classList.remove('show--consent')
}

let ready: Promise<void> | null = null

/**
 * Starts the consent dialog once per page (later calls return the first promise): shows the banner
 * to a visitor who has not chosen yet and opens the preferences on COOKIE_PREFERENCES_EVENT.
 */
export function initConsent(language: Language): Promise<void> {
  if (ready) return ready
  window.addEventListener(COOKIE_PREFERENCES_EVENT, () => void showConsentPreferences())
  ready = CookieConsent.run(consentConfig(language)).then(replacePrerenderedDialog).then(syncConsentRecord)
  return ready
}

/** Opens the preferences dialog (the footers' "Cookie preferences"). */
export async function showConsentPreferences(): Promise<void> {
  await initConsent(supportedLanguage(document.documentElement.lang) ?? 'en')
  CookieConsent.showPreferences()
}

/** Follows the app's language switch; an open dialog is re-rendered in the new language. */
export async function setConsentLanguage(language: Language): Promise<void> {
  if (!ready) return
  await ready
  await CookieConsent.setLanguage(language)
}
