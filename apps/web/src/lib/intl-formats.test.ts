import { afterEach, describe, expect, it, vi } from 'vitest'
import { dateFormat, relativeFormat, renderInTimeZone, warmDateFormats } from './intl-formats'

afterEach(() => vi.useRealTimers())

describe('date formatters', () => {
  it('are made once per language and options', () => {
    expect(dateFormat('de')).toBe(dateFormat('de', { dateStyle: 'medium' }))
    expect(dateFormat('de')).not.toBe(dateFormat('en'))
    expect(dateFormat('en', { dateStyle: 'long' })).not.toBe(dateFormat('en'))
    expect(relativeFormat('en').format(-1, 'day')).toBe('yesterday')
    expect(dateFormat('de').format(new Date('2026-11-27T12:00:00Z'))).toBe('27.11.2026')
  })

  it('show a server-rendered screen in its person’s time zone, and ignore one this runtime does not know', () => {
    const late = new Date('2026-11-27T23:30:00Z')
    const options = { dateStyle: 'short', timeStyle: 'short' } as const
    try {
      renderInTimeZone('Europe/Berlin')
      expect(dateFormat('de', options).format(late)).toBe('28.11.26, 00:30')
      renderInTimeZone('Mars/Olympus_Mons')
      expect(dateFormat('de', options).resolvedOptions().timeZone).toBe(
        new Intl.DateTimeFormat().resolvedOptions().timeZone,
      )
    } finally {
      renderInTimeZone(undefined)
    }
  })

  it('are made ahead one per task', () => {
    vi.useFakeTimers()
    const made = vi.spyOn(Intl, 'DateTimeFormat')
    warmDateFormats('fr')
    expect(made).not.toHaveBeenCalled()
    vi.advanceTimersToNextTimer()
    expect(made).toHaveBeenCalledTimes(1)
    vi.runAllTimers()
    expect(made).toHaveBeenCalledTimes(2)
    made.mockRestore()
  })
})
