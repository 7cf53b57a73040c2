import { describe, expect, it } from 'vitest'
import { relativeTime } from './relative-time'

const now = Date.parse('2026-11-24T12:00:00Z')
const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString()

describe('relativeTime (spec 000 §9)', () => {
  it('counts seconds, minutes, hours and days, then shows a short date', () => {
    expect(relativeTime(ago(0), 'en', now)).toBe('now')
    expect(relativeTime(ago(59), 'en', now)).toBe('59 seconds ago')
    expect(relativeTime(ago(60), 'en', now)).toBe('1 minute ago')
    expect(relativeTime(ago(59 * 60 + 59), 'en', now)).toBe('59 minutes ago')
    expect(relativeTime(ago(3600), 'en', now)).toBe('1 hour ago')
    expect(relativeTime(ago(23 * 3600 + 3599), 'en', now)).toBe('23 hours ago')
    expect(relativeTime(ago(24 * 3600), 'en', now)).toBe('yesterday')
    expect(relativeTime(ago(6 * 86400), 'en', now)).toBe('6 days ago')
    expect(relativeTime(ago(7 * 86400), 'en', now)).toBe('Nov 17, 2026')
  })

  it('speaks German, and treats a time slightly ahead (clock skew) as now', () => {
    expect(relativeTime(ago(120), 'de', now)).toBe('vor 2 Minuten')
    expect(relativeTime(ago(3 * 86400), 'de', now)).toBe('vor 3 Tagen')
    expect(relativeTime(ago(-5), 'de', now)).toBe('jetzt')
  })
})
