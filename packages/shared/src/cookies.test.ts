import { describe, expect, it } from 'vitest'
import { CONSENT_COOKIE_NAME, hasCookie } from './cookies'

describe('hasCookie', () => {
  it('finds a cookie among others, and only that name', () => {
    expect(hasCookie(`lang=de; ${CONSENT_COOKIE_NAME}=%7B%7D; other=1`, CONSENT_COOKIE_NAME)).toBe(true)
    expect(hasCookie(`${CONSENT_COOKIE_NAME}=x`, CONSENT_COOKIE_NAME)).toBe(true)
    expect(hasCookie('lang=de; my_cc_cookie=1; cc_cookies=1', CONSENT_COOKIE_NAME)).toBe(false)
    expect(hasCookie('', CONSENT_COOKIE_NAME)).toBe(false)
    expect(hasCookie(undefined, CONSENT_COOKIE_NAME)).toBe(false)
  })
})
