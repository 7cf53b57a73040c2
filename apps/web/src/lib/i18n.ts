import { LANGUAGES, RTL_LANGUAGES, supportedLanguage, type Language } from '@circles/shared'
import i18n, { type BackendModule, type ResourceKey } from 'i18next'
import { initReactI18next } from 'react-i18next'
import { storedLanguage } from '@/lib/session'

export { LANGUAGES, type Language }
export const DEFAULT_LANGUAGE: Language = 'en'
/** Loaded before the first render; feature namespaces load with their route. */
export const INITIAL_NAMESPACES = ['common', 'errors'] as const

/** True for scripts written right to left (spec 000 §4), whatever the region subtag. */
export function isRtl(language: string): boolean {
  const base = language.toLowerCase().split('-')[0] ?? ''
  return (RTL_LANGUAGES as readonly string[]).includes(base)
}

/** Stored choice first, then the browser's languages in order, then English (spec 000 §4). */
export function pickLanguage(
  stored: string | null | undefined,
  navigatorLanguages: readonly string[],
): Language {
  const fromStored = supportedLanguage(stored)
  if (fromStored) return fromStored
  for (const language of navigatorLanguages) {
    const supported = supportedLanguage(language)
    if (supported) return supported
  }
  return DEFAULT_LANGUAGE
}

function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return []
  return navigator.languages?.length ? navigator.languages : [navigator.language]
}

// Each locales/<lng>/<ns>.json becomes its own chunk, fetched only when that language needs it.
const localeFiles = import.meta.glob<ResourceKey>('../locales/*/*.json', { import: 'default' })

const lazyLocales: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, namespace, callback) {
    const load = localeFiles[`../locales/${language}/${namespace}.json`]
    if (!load) {
      callback(new Error(`No translations for ${language}/${namespace}`), false)
      return
    }
    load().then(
      (resources) => callback(null, resources),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    )
  },
}

/**
 * `lang` and `dir` follow the language the UI is shown in, not the browser's: a visitor whose browser
 * asks for Arabic reads the English fallback, which must run left to right.
 */
export function applyDocumentLanguage(language: string): void {
  if (typeof document === 'undefined') return
  document.documentElement.lang = language
  document.documentElement.dir = isRtl(language) ? 'rtl' : 'ltr'
}

export const LANGUAGE_COOKIE = 'lang'
const LANGUAGE_COOKIE_MAX_AGE_SECONDS = 60 * 60 * 24 * 365

/**
 * Mirrors the stored language choice into a cookie, which the server reads to send prerendered pages
 * in that language before any script runs. Without a stored choice the cookie goes too: the server then
 * follows Accept-Language, as pickLanguage follows navigator.languages, and both land on the same page.
 */
export function writeLanguageCookie(language: Language | null): void {
  if (typeof document === 'undefined') return
  const secure = location.protocol === 'https:' ? '; Secure' : ''
  const lifetime = language
    ? `Max-Age=${LANGUAGE_COOKIE_MAX_AGE_SECONDS}`
    : 'Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT'
  document.cookie = `${LANGUAGE_COOKIE}=${language ?? ''}; Path=/; ${lifetime}; SameSite=Lax${secure}`
}

let initialised: Promise<typeof i18n> | null = null

/**
 * Namespaces asked for before initI18n (the first page's, which app/router.ts starts loading at once):
 * they load with the initial ones, in parallel, instead of one after another as the page renders.
 */
const earlyNamespaces = new Set<string>()

/** Resolves once the initial namespaces of the chosen language are loaded, so no raw key ever renders. */
export function initI18n(language?: Language): Promise<typeof i18n> {
  initialised ??= (async () => {
    const lng = language ?? pickLanguage(storedLanguage.get(), browserLanguages())
    i18n.on('languageChanged', applyDocumentLanguage)
    await i18n
      .use(lazyLocales)
      .use(initReactI18next)
      .init({
        lng,
        // Both languages hold every key (i18n.test.ts), so German never falls back to English: a German
        // screen loads only German strings (issue 27: half the locale bytes on a German first load).
        fallbackLng: false,
        supportedLngs: LANGUAGES,
        load: 'languageOnly',
        ns: [...INITIAL_NAMESPACES, ...earlyNamespaces],
        defaultNS: 'common',
        interpolation: { escapeValue: false }, // React escapes already.
        react: { useSuspense: true },
      })
    applyDocumentLanguage(i18n.language)
    // Also brings browsers that chose a language before the cookie existed in line.
    writeLanguageCookie(storedLanguage.get())
    return i18n
  })()
  return initialised
}

/** Switches language and remembers the choice, so it wins over the browser's next time. */
export async function setLanguage(language: Language): Promise<void> {
  storedLanguage.set(language)
  writeLanguageCookie(language)
  await i18n.changeLanguage(language)
}

/** Loads namespaces ahead of rendering (e.g. in a route's lazy()), so Suspense has nothing to wait for. */
export function loadNamespaces(...namespaces: string[]): Promise<void> {
  if (!initialised) {
    // i18next would ignore them before init; initI18n loads them with its own.
    for (const namespace of namespaces) earlyNamespaces.add(namespace)
    return Promise.resolve()
  }
  return i18n.loadNamespaces(namespaces)
}

export { i18n }
