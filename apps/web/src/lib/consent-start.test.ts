import { CONSENT_COOKIE_NAME } from '@circles/shared'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { requestCookiePreferences } from '@/lib/shell-events'

// Stands in for the consent library's module: these tests are about when it loads, not what it does.
const consent = vi.hoisted(() => ({
  loads: 0,
  initConsent: vi.fn(() => Promise.resolve()),
  showConsentPreferences: vi.fn(() => Promise.resolve()),
  setConsentLanguage: vi.fn(() => Promise.resolve()),
}))
/** A new page: fresh modules, and a count of how often the consent module is loaded. */
async function freshStart() {
  vi.resetModules()
  vi.doMock('@/lib/consent', () => {
    consent.loads++
    return {
      initConsent: consent.initConsent,
      showConsentPreferences: consent.showConsentPreferences,
      setConsentLanguage: consent.setConsentLanguage,
    }
  })
  return import('@/lib/consent-start')
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

function clearCookies(): void {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim()
    if (name) document.cookie = `${name}=; Path=/; Max-Age=0`
  }
}

beforeEach(() => {
  consent.loads = 0
  vi.clearAllMocks()
})
afterEach(clearCookies)

describe('startConsent', () => {
  it('loads the consent code at once for a visitor who has not chosen, and starts the dialog', async () => {
    const { startConsent } = await freshStart()
    startConsent('de')
    await settle()
    expect(consent.loads).toBe(1)
    expect(consent.initConsent).toHaveBeenCalledWith('de')
  })

  it('loads nothing for a visitor who has chosen, until "Cookie preferences" is asked for', async () => {
    document.cookie = `${CONSENT_COOKIE_NAME}=${encodeURIComponent('{"categories":["necessary"]}')}; Path=/`
    const { startConsent, followConsentLanguage } = await freshStart()
    startConsent('en')
    startConsent('en')
    followConsentLanguage('de')
    await settle()
    expect(consent.loads).toBe(0)
    expect(consent.initConsent).not.toHaveBeenCalled()
    expect(consent.setConsentLanguage).not.toHaveBeenCalled()

    requestCookiePreferences()
    await settle()
    expect(consent.loads).toBe(1)
    expect(consent.showConsentPreferences).toHaveBeenCalledTimes(1)
    // Later requests go to the library's own listener (lib/consent.ts), not a second time through here.
    requestCookiePreferences()
    await settle()
    expect(consent.showConsentPreferences).toHaveBeenCalledTimes(1)
    // Loaded now, the dialog follows the app's language.
    followConsentLanguage('de')
    await settle()
    expect(consent.setConsentLanguage).toHaveBeenCalledWith('de')
  })
})
