import { LIMITS } from '@circles/shared'
import * as CookieConsent from 'vanilla-cookieconsent'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type * as ConsentModuleExports from '@/lib/consent'
import { hasAnalyticsConsent, readConsentRecord } from '@/lib/consent-record'
import { COOKIE_PREFERENCES_EVENT } from '@/lib/shell-events'
import englishTexts from '@/locales/en/consent.json'

type ConsentModule = typeof ConsentModuleExports

function cookie(name: string): string | undefined {
  return document.cookie
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name}=`))
    ?.slice(name.length + 1)
}

function clearCookies(): void {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim()
    if (name) document.cookie = `${name}=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT`
  }
}

function button(name: string): HTMLButtonElement {
  const found = [...document.querySelectorAll<HTMLButtonElement>('#cc-main button')].find(
    (candidate) => candidate.textContent?.trim() === name,
  )
  if (!found) throw new Error(`no consent button "${name}"`)
  return found
}

/** A fresh copy of our module and a reset library (a dependency, so not reloaded), as on a new page. */
async function freshConsent(): Promise<ConsentModule> {
  CookieConsent.reset()
  vi.resetModules()
  return import('@/lib/consent')
}

beforeEach(() => {
  clearCookies()
  // The library hides from automated browsers; happy-dom says it is one.
  Object.defineProperty(navigator, 'webdriver', { get: () => false, configurable: true })
})
afterEach(() => {
  CookieConsent.reset(true)
  clearCookies()
})

describe('consent texts', () => {
  it('link the privacy policy and the terms from the banner and the preferences', async () => {
    const { consentTranslation } = await import('@/lib/consent')
    const translation = consentTranslation(englishTexts)
    expect(translation.consentModal.footer).toContain('<a href="/privacy">Privacy policy</a>')
    expect(translation.consentModal.footer).toContain('<a href="/terms">Terms of service</a>')
    const more = translation.preferencesModal.sections.at(-1)!.description!
    expect(more).toContain('href="/privacy"')
    expect(more).toContain('href="/terms"')
    expect(translation.preferencesModal.sections.map((section) => section.linkedCategory)).toEqual([
      undefined,
      'necessary',
      'analytics',
      undefined,
    ])
  })

  it('escape the translations, which the library renders as HTML', async () => {
    const { consentTranslation } = await import('@/lib/consent')
    const translation = consentTranslation({
      ...englishTexts,
      consentModal: { ...englishTexts.consentModal, title: '<img src=x onerror=alert(1)>' },
    })
    expect(translation.consentModal.title).toBe('&lt;img src=x onerror=alert(1)&gt;')
  })

  it('keep necessary on and read-only, analytics off, for the spec lifetime', async () => {
    const { consentConfig } = await import('@/lib/consent')
    const config = consentConfig('de')
    expect(config.categories.necessary).toMatchObject({ enabled: true, readOnly: true })
    expect(config.categories.analytics).toMatchObject({ enabled: false, readOnly: false })
    expect(config.cookie?.expiresAfterDays).toBe(LIMITS.cookieConsentDays)
    expect(config.language.default).toBe('de')
    expect(Object.keys(config.language.translations).sort()).toEqual(['de', 'en'])
  })
})

describe('consent dialog', () => {
  it('asks first, and a reject keeps analytics off and clears analytics cookies', async () => {
    document.cookie = '_ga=GA1.1.123; Path=/'
    const { initConsent } = await freshConsent()
    await initConsent('en')
    await vi.waitFor(() => expect(document.querySelector('#cc-main .cm')).not.toBeNull())
    expect(document.querySelector('#cc-main .cm__footer a[href="/privacy"]')).not.toBeNull()

    button('Reject all').click()
    await vi.waitFor(() => expect(cookie('cc_cookie')).toBeDefined())
    expect(readConsentRecord()).toMatchObject({ necessary: true, analytics: false, marketing: false })
    expect(hasAnalyticsConsent()).toBe(false)
    expect(cookie('_ga')).toBeUndefined()
  })

  it('turns analytics on with accept all, and opens the preferences on the window event', async () => {
    const { initConsent } = await freshConsent()
    await initConsent('en')
    await vi.waitFor(() => expect(document.querySelector('#cc-main .cm')).not.toBeNull())
    button('Accept all').click()
    await vi.waitFor(() => expect(hasAnalyticsConsent()).toBe(true))
    expect(JSON.parse(decodeURIComponent(cookie('cc_cookie')!))).toMatchObject({
      categories: ['necessary', 'analytics'],
    })

    window.dispatchEvent(new CustomEvent(COOKIE_PREFERENCES_EVENT))
    await vi.waitFor(() => expect(document.querySelector('#cc-main .pm')).not.toBeNull())
    expect(document.documentElement.classList.contains('show--preferences')).toBe(true)
  })

  it('restores the record from an earlier choice on the next page load', async () => {
    const first = await freshConsent()
    await first.initConsent('en')
    await vi.waitFor(() => expect(document.querySelector('#cc-main .cm')).not.toBeNull())
    button('Accept all').click()
    await vi.waitFor(() => expect(hasAnalyticsConsent()).toBe(true))

    localStorage.clear()
    const second = await freshConsent()
    await second.initConsent('en')
    expect(readConsentRecord()).toMatchObject({ analytics: true })
  })
})

describe('a dialog the prerendered page brought along', () => {
  async function prerenderedDialog(): Promise<string> {
    const { renderConsentDialog } = await import('@/lib/consent-prerender')
    const html = await renderConsentDialog('de')
    CookieConsent.reset()
    return html
  }

  function loadPage(dialog: string): void {
    document.body.insertAdjacentHTML('afterbegin', dialog)
    document.documentElement.classList.add('show--consent')
  }

  it('is the library’s own dialog, shown without a fade, in the page’s language', async () => {
    const html = await prerenderedDialog()
    const page = new DOMParser().parseFromString(html, 'text/html')
    expect(
      page.querySelector('#cc-main[data-prerendered] .cm-wrapper.cc--anim .cm[role="dialog"]'),
    ).not.toBeNull()
    expect(page.querySelector('#cm__title')?.textContent).toBe('Cookies bei Circles')
    expect(document.querySelector('#cc-main')).toBeNull()
  })

  it('is swapped for the live dialog in the same task, already shown', async () => {
    loadPage(await prerenderedDialog())
    const { initConsent } = await freshConsent()
    await initConsent('en')
    expect(document.querySelectorAll('#cc-main')).toHaveLength(1)
    expect(document.querySelector('#cc-main[data-prerendered]')).toBeNull()
    expect(document.querySelector('#cc-main .cm-wrapper')?.classList.contains('cc--anim')).toBe(true)
    expect(document.documentElement.classList.contains('show--consent')).toBe(true)
    button('Reject all').click()
    await vi.waitFor(() => expect(cookie('cc_cookie')).toBeDefined())
  })

  it('goes, with its class, when the visitor has chosen already', async () => {
    const first = await freshConsent()
    await first.initConsent('en')
    await vi.waitFor(() => expect(document.querySelector('#cc-main .cm')).not.toBeNull())
    button('Accept all').click()
    await vi.waitFor(() => expect(cookie('cc_cookie')).toBeDefined())
    const chosen = cookie('cc_cookie')!

    const dialog = await prerenderedDialog()
    document.cookie = `cc_cookie=${chosen}; Path=/`
    loadPage(dialog)
    const second = await freshConsent()
    await second.initConsent('en')
    expect(document.querySelector('#cc-main')).toBeNull()
    expect(document.documentElement.classList.contains('show--consent')).toBe(false)
  })
})
