import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  noopAnalyticsProvider,
  setAnalyticsProvider,
  trackEvent,
  trackPageView,
  type AnalyticsProvider,
} from '@/lib/analytics'
import { clearConsentRecord, writeConsentRecord } from '@/lib/consent-record'

function spyProvider() {
  return { pageView: vi.fn(), event: vi.fn(), reset: vi.fn() } satisfies AnalyticsProvider
}

let provider: ReturnType<typeof spyProvider>

beforeEach(() => {
  // A no, then no record: analytics forgets any yes a previous test left in its memory.
  writeConsentRecord({ analytics: false })
  clearConsentRecord()
  provider = spyProvider()
  setAnalyticsProvider(provider)
})

afterEach(() => {
  setAnalyticsProvider(noopAnalyticsProvider)
  clearConsentRecord()
})

describe('analytics gating (spec 000 §4)', () => {
  it('sends nothing before the visitor has chosen', () => {
    trackPageView('/dashboard')
    trackEvent('circle_created', { members: 3 })
    expect(provider.pageView).not.toHaveBeenCalled()
    expect(provider.event).not.toHaveBeenCalled()
  })

  it('sends nothing after a no', () => {
    writeConsentRecord({ analytics: false })
    trackPageView('/dashboard')
    trackEvent('circle_joined')
    expect(provider.pageView).not.toHaveBeenCalled()
    expect(provider.event).not.toHaveBeenCalled()
  })

  it('forwards page views and events after a yes', () => {
    writeConsentRecord({ analytics: true })
    trackPageView('/dashboard')
    trackEvent('circle_created', { members: 3 })
    expect(provider.pageView).toHaveBeenCalledWith('/dashboard')
    expect(provider.event).toHaveBeenCalledWith('circle_created', { members: 3 })
  })

  it('never forwards a query string or fragment (they carry tokens)', () => {
    writeConsentRecord({ analytics: true })
    trackPageView('/reset-password?token=abc#x')
    expect(provider.pageView).toHaveBeenLastCalledWith('/reset-password')
  })

  it('counts the current page once the visitor says yes', () => {
    trackPageView('/verify?token=secret')
    expect(provider.pageView).not.toHaveBeenCalled()
    writeConsentRecord({ analytics: true })
    expect(provider.pageView).toHaveBeenCalledTimes(1)
    expect(provider.pageView).toHaveBeenCalledWith('/verify')
  })

  it('asks the provider to forget this device on a no and when consent is withdrawn', () => {
    writeConsentRecord({ analytics: false })
    expect(provider.reset).toHaveBeenCalledTimes(1)
    writeConsentRecord({ analytics: true })
    writeConsentRecord({ analytics: false }, new Date(Date.now() + 1000))
    expect(provider.reset).toHaveBeenCalledTimes(2)
    trackEvent('circle_joined')
    expect(provider.event).not.toHaveBeenCalled()
  })

  it('stays silent with the default provider', () => {
    setAnalyticsProvider(noopAnalyticsProvider)
    writeConsentRecord({ analytics: true })
    expect(() => trackPageView('/dashboard')).not.toThrow()
  })
})
