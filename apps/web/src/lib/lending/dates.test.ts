import { describe, expect, it } from 'vitest'
import { dateInDays, dueAtFrom, formatDue, isDueSoon, isoWithOffset, localDateTime } from './dates'

describe('lending dates (docs/decisions/0050)', () => {
  it('sends a local date and time as ISO with the offset of that instant', () => {
    const at = localDateTime('2026-12-03', '23:59')
    expect(at).not.toBeNull()
    const iso = isoWithOffset(at!)
    expect(iso).toMatch(/^2026-12-03T23:59:00[+-]\d{2}:\d{2}$/)
    // The same instant, read back.
    expect(new Date(iso).getTime()).toBe(at!.getTime())
  })

  it('refuses a date that does not exist and a moment already past', () => {
    const now = new Date(2026, 10, 26, 12, 0)
    expect(dueAtFrom('2026-02-31', '12:00', now)).toEqual({ error: 'invalid' })
    expect(dueAtFrom('2026-11-26', '11:59', now)).toEqual({ error: 'past' })
    expect(dueAtFrom('', '', now)).toEqual({ error: 'invalid' })
  })

  it('takes any future minute, the end of the day when no time is given', () => {
    const now = new Date(2026, 10, 26, 12, 0)
    const next = dueAtFrom('2026-11-26', '12:01', now)
    expect('dueAt' in next && new Date(next.dueAt).getTime()).toBe(new Date(2026, 10, 26, 12, 1).getTime())
    const noTime = dueAtFrom('2026-11-27', '', now)
    expect('dueAt' in noTime && new Date(noTime.dueAt).getTime()).toBe(
      new Date(2026, 10, 27, 23, 59).getTime(),
    )
  })

  it('defaults a week ahead, across month ends', () => {
    expect(dateInDays(7, new Date(2026, 10, 26, 9, 0))).toBe('2026-12-03')
  })

  it('shows the day, and the time only when it is not the end of the day', () => {
    const endOfDay = isoWithOffset(new Date(2026, 11, 3, 23, 59))
    expect(formatDue(endOfDay, 'en')).toBe('Dec 3, 2026')
    expect(formatDue(endOfDay, 'de')).toBe('03.12.2026')
    expect(formatDue(isoWithOffset(new Date(2026, 11, 3, 18, 0)), 'en')).toContain('6:00')
  })

  it('counts a loan due within three days as due soon, a past one not', () => {
    const now = new Date(2026, 10, 26, 12, 0)
    expect(isDueSoon(new Date(2026, 10, 28, 12, 0).toISOString(), now)).toBe(true)
    expect(isDueSoon(new Date(2026, 11, 1, 12, 0).toISOString(), now)).toBe(false)
    expect(isDueSoon(new Date(2026, 10, 25, 12, 0).toISOString(), now)).toBe(false)
  })
})
