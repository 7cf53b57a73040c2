/**
 * A small RFC 5545 writer for the calendar feed (issue 26, docs/decisions/0049): only what the feed
 * needs (VCALENDAR with VEVENTs). TEXT values escaped (§3.3.11), lines folded at 75 octets without
 * splitting a UTF-8 character (§3.1), CRLF line ends.
 */

export type IcalEvent = {
  uid: string
  summary: string
  url?: string
  description?: string
  /** A timed event: start (UTC) and its length in minutes. */
  start?: Date
  minutes?: number
  /** An all-day event: the calendar day, YYYY-MM-DD. */
  date?: string
}

export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n')
}

/** Folds a content line at 75 octets: CRLF then one space, never inside a UTF-8 sequence. */
export function foldLine(line: string): string {
  const out: string[] = []
  let current = ''
  let octets = 0
  for (const char of line) {
    const size = Buffer.byteLength(char, 'utf8')
    // The first line holds 75 octets; every continuation line starts with a space and holds 74 more.
    if (octets + size > 75) {
      out.push(current)
      current = ' '
      octets = 1
    }
    current += char
    octets += size
  }
  out.push(current)
  return out.join('\r\n')
}

/** 20260330T160000Z */
export function utcStamp(instant: Date): string {
  return instant
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')
}

const dateValue = (isoDate: string) => isoDate.replace(/-/g, '')

function nextDay(isoDate: string): string {
  const d = new Date(`${isoDate}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + 1)
  return d.toISOString().slice(0, 10)
}

export function calendar(opts: { name: string; stamp: Date; events: IcalEvent[] }): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Circles//Loans//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(opts.name)}`,
    'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
    'X-PUBLISHED-TTL:PT1H',
  ]
  for (const event of opts.events) {
    lines.push('BEGIN:VEVENT', `UID:${event.uid}`, `DTSTAMP:${utcStamp(opts.stamp)}`)
    if (event.date) {
      lines.push(
        `DTSTART;VALUE=DATE:${dateValue(event.date)}`,
        `DTEND;VALUE=DATE:${dateValue(nextDay(event.date))}`,
      )
    } else if (event.start) {
      const end = new Date(event.start.getTime() + (event.minutes ?? 30) * 60_000)
      lines.push(`DTSTART:${utcStamp(event.start)}`, `DTEND:${utcStamp(end)}`)
    }
    lines.push(`SUMMARY:${escapeText(event.summary)}`)
    if (event.description) lines.push(`DESCRIPTION:${escapeText(event.description)}`)
    // A URI value is not TEXT: no escaping (our URLs carry no control characters).
    if (event.url) lines.push(`URL:${event.url}`)
    lines.push('TRANSP:TRANSPARENT', 'END:VEVENT')
  }
  lines.push('END:VCALENDAR')
  return `${lines.map(foldLine).join('\r\n')}\r\n`
}
