import { describe, expect, it } from 'vitest'
import { CONSENT_COOKIE_NAME, hasConsentCookie } from '@/lib/consent-cookie'

describe('hasConsentCookie', () => {
  it('finds the consent cookie among others, and only that name', () => {
    expect(hasConsentCookie(`lang=de; ${CONSENT_COOKIE_NAME}=%7B%7D; other=1`)).toBe(true)
    expect(hasConsentCookie(`${CONSENT_COOKIE_NAME}=x`)).toBe(true)
    expect(hasConsentCookie('lang=de; my_cc_cookie=1; cc_cookies=1')).toBe(false)
    expect(hasConsentCookie('')).toBe(false)
  })
})
