import { describe, expect, it } from 'vitest'
import { describeDate } from './dates'

const now = new Date(2025, 5, 30, 12, 0)
const daysBefore = (days: number) => new Date(2025, 5, 30 - days, 9, 0).toISOString()

describe('describeDate', () => {
  it('reads today, yesterday, then N days ago up to 29 days', () => {
    expect(describeDate(daysBefore(0), 'en', now)).toEqual({ kind: 'relative', text: 'today' })
    expect(describeDate(daysBefore(1), 'en', now)).toEqual({ kind: 'relative', text: 'yesterday' })
    expect(describeDate(daysBefore(2), 'en', now)).toEqual({ kind: 'relative', text: '2 days ago' })
    expect(describeDate(daysBefore(29), 'en', now)).toEqual({ kind: 'relative', text: '29 days ago' })
  })

  it('switches to a short date at 30 days', () => {
    expect(describeDate(daysBefore(30), 'en', now)).toEqual({ kind: 'date', text: 'May 31, 2025' })
    expect(describeDate(daysBefore(30), 'de', now)).toEqual({ kind: 'date', text: '31.05.2025' })
  })

  it('speaks the UI language', () => {
    expect(describeDate(daysBefore(2), 'de', now).text).toBe('vor 2 Tagen')
    expect(describeDate(daysBefore(1), 'de', now).text).toBe('gestern')
  })

  it('treats a moment slightly in the future (clock skew) as today', () => {
    expect(describeDate(new Date(2025, 5, 30, 13, 0).toISOString(), 'en', now).text).toBe('today')
  })
})
