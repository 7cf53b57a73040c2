import { LIMITS } from '@circles/shared'
import { describe, expect, it, vi } from 'vitest'
import {
  clearConsentRecord,
  CONSENT_RECORD_KEY,
  hasAnalyticsConsent,
  readConsentRecord,
  subscribeConsentRecord,
  writeConsentRecord,
} from '@/lib/consent-record'

const DAY_MS = 24 * 60 * 60 * 1000

describe('local consent record (spec 000 §3)', () => {
  it('is absent until a choice is made, and analytics is then off', () => {
    expect(readConsentRecord()).toBeNull()
    expect(hasAnalyticsConsent()).toBe(false)
  })

  it('stores necessary, analytics, marketing and a timestamp', () => {
    const when = new Date('2026-03-01T10:00:00.000Z')
    const record = writeConsentRecord({ analytics: true }, when)
    expect(record).toEqual({
      necessary: true,
      analytics: true,
      marketing: false,
      timestamp: when.toISOString(),
    })
    expect(JSON.parse(localStorage.getItem(CONSENT_RECORD_KEY)!)).toEqual(record)
    expect(readConsentRecord()).toEqual(record)
  })

  it('grants analytics only for a yes younger than the consent cookie', () => {
    const given = new Date('2026-03-01T10:00:00.000Z')
    writeConsentRecord({ analytics: true }, given)
    expect(hasAnalyticsConsent(given.getTime() + DAY_MS)).toBe(true)
    expect(hasAnalyticsConsent(given.getTime() + (LIMITS.cookieConsentDays - 1) * DAY_MS)).toBe(true)
    expect(hasAnalyticsConsent(given.getTime() + LIMITS.cookieConsentDays * DAY_MS)).toBe(false)

    writeConsentRecord({ analytics: false }, given)
    expect(hasAnalyticsConsent(given.getTime() + DAY_MS)).toBe(false)
  })

  it.each([
    ['not JSON', '{oops'],
    [
      'necessary off',
      JSON.stringify({ necessary: false, analytics: true, marketing: false, timestamp: '2026-01-01' }),
    ],
    ['no timestamp', JSON.stringify({ necessary: true, analytics: true, marketing: false })],
    [
      'a bad timestamp',
      JSON.stringify({ necessary: true, analytics: true, marketing: false, timestamp: 'x' }),
    ],
  ])('treats a record with %s as no record', (_label, raw) => {
    localStorage.setItem(CONSENT_RECORD_KEY, raw)
    expect(readConsentRecord()).toBeNull()
    expect(hasAnalyticsConsent()).toBe(false)
  })

  it('tells subscribers about real changes only', () => {
    const listener = vi.fn()
    const unsubscribe = subscribeConsentRecord(listener)
    const when = new Date()
    writeConsentRecord({ analytics: false }, when)
    writeConsentRecord({ analytics: false }, when)
    expect(listener).toHaveBeenCalledTimes(1)
    clearConsentRecord()
    clearConsentRecord()
    expect(listener).toHaveBeenCalledTimes(2)
    expect(readConsentRecord()).toBeNull()
    unsubscribe()
    writeConsentRecord({ analytics: true })
    expect(listener).toHaveBeenCalledTimes(2)
  })
})
