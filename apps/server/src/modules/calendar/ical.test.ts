import { describe, expect, it } from 'vitest'
import { calendar, escapeText, foldLine, utcStamp } from './ical'

describe('the iCalendar writer (RFC 5545)', () => {
  it('escapes TEXT values', () => {
    expect(escapeText('Drill, big; a\\b\nnext\r\nline')).toBe('Drill\\, big\\; a\\\\b\\nnext\\nline')
  })

  it('folds lines at 75 octets without splitting a UTF-8 character', () => {
    const line = `SUMMARY:${'ä'.repeat(60)}`
    const folded = foldLine(line)
    const parts = folded.split('\r\n')
    expect(parts.length).toBeGreaterThan(1)
    for (const part of parts) expect(Buffer.byteLength(part, 'utf8')).toBeLessThanOrEqual(75)
    for (const part of parts.slice(1)) expect(part.startsWith(' ')).toBe(true)
    // Unfolding gives the line back.
    expect(folded.replace(/\r\n /g, '')).toBe(line)
    expect(foldLine('SHORT:x')).toBe('SHORT:x')
    expect(foldLine('A'.repeat(75))).toBe('A'.repeat(75))
    expect(foldLine('A'.repeat(76))).toBe(`${'A'.repeat(75)}\r\n A`)
  })

  it('writes a calendar with timed and all-day events, CRLF throughout', () => {
    const text = calendar({
      name: 'Circles: loans',
      stamp: new Date('2026-03-01T10:00:00Z'),
      events: [
        {
          uid: 'loan-1@x',
          summary: 'Return Drill, big to Ida',
          start: new Date('2026-03-30T16:00:00Z'),
          url: 'http://x/items/1',
        },
        { uid: 'loan-2@x', summary: 'Tent due back from Ben', date: '2026-12-31' },
      ],
    })
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true)
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/)
    const lines = text.split('\r\n')
    expect(lines).toContain('DTSTART:20260330T160000Z')
    expect(lines).toContain('DTEND:20260330T163000Z')
    expect(lines).toContain('SUMMARY:Return Drill\\, big to Ida')
    expect(lines).toContain('DTSTART;VALUE=DATE:20261231')
    expect(lines).toContain('DTEND;VALUE=DATE:20270101')
    expect(lines.filter((l) => l === 'DTSTAMP:20260301T100000Z')).toHaveLength(2)
    expect(utcStamp(new Date('2026-01-02T03:04:05.678Z'))).toBe('20260102T030405Z')
  })
})
