import { dateFormat } from '@/lib/intl-formats'
/**
 * Return dates as the lending screens pick and show them (docs/decisions/0050). A person picks a local
 * date and time; the server gets an ISO instant with the offset of that moment in the browser's time
 * zone, so 23:59 on the 3rd means 23:59 where the lender is, also across a daylight-saving switch.
 */

/** The default time of a return: the end of the day. */
export const END_OF_DAY = '23:59'
/** The default loan: a week. */
export const DEFAULT_LOAN_DAYS = 7
/** 'Due back soon' on the dashboard: due within this many days. */
export const DUE_SOON_DAYS = 3

const pad = (n: number) => String(Math.abs(n)).padStart(2, '0')

/** `YYYY-MM-DD` of a date in the browser's time zone (what `<input type="date">` holds). */
export function localDateValue(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

/** `HH:mm` of a date in the browser's time zone. */
export function localTimeValue(date: Date): string {
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`
}

/** The date `days` days after `from`, as an input value. */
export function dateInDays(days: number, from: Date = new Date()): string {
  const date = new Date(from.getFullYear(), from.getMonth(), from.getDate() + days)
  return localDateValue(date)
}

/** A local date and time as a Date; null when either is not a valid value. */
export function localDateTime(date: string, time: string): Date | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date)
  const t = /^(\d{2}):(\d{2})$/.exec(time)
  if (!d || !t) return null
  const [year, month, day, hours, minutes] = [d[1], d[2], d[3], t[1], t[2]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ]
  const result = new Date(year, month - 1, day, hours, minutes, 0, 0)
  // 2026-02-31 rolls over into March: not a date anyone picked.
  if (result.getFullYear() !== year || result.getMonth() !== month - 1 || result.getDate() !== day)
    return null
  return result
}

/** An instant as ISO 8601 with the browser's offset at that instant: `2026-12-03T23:59:00+01:00`. */
export function isoWithOffset(date: Date): string {
  const offset = -date.getTimezoneOffset()
  const sign = offset >= 0 ? '+' : '-'
  return (
    `${localDateValue(date)}T${localTimeValue(date)}:${pad(date.getSeconds())}` +
    `${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`
  )
}

/** The picked return date as the API takes it, or why not: invalid, or not in the future. */
export function dueAtFrom(
  date: string,
  time: string,
  now: Date = new Date(),
): { dueAt: string } | { error: 'invalid' | 'past' } {
  const at = localDateTime(date, time || END_OF_DAY)
  if (!at) return { error: 'invalid' }
  if (at.getTime() <= now.getTime()) return { error: 'past' }
  return { dueAt: isoWithOffset(at) }
}

/**
 * A return date in the page's language: the day, and the time only when it is not the end of the day
 * ("Dec 3, 2026" / "3. Dez. 2026", "Dec 3, 2026, 6:00 PM").
 */
export function formatDue(iso: string, language: string): string {
  const date = new Date(iso)
  if (localTimeValue(date) === END_OF_DAY) {
    return dateFormat(language, { dateStyle: 'medium' }).format(date)
  }
  return dateFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(date)
}

/** Due within `days` days from now and not yet past. */
export function isDueSoon(iso: string, now: Date = new Date(), days = DUE_SOON_DAYS): boolean {
  const due = new Date(iso).getTime()
  return due > now.getTime() && due - now.getTime() <= days * 24 * 60 * 60 * 1000
}

/** The return date an owner's accept starts from: the asker's wished date, else a week ahead. */
export function wishedOrDefault(wishedUntil: string, now: Date = new Date()): { date: string; time: string } {
  const wished = new Date(wishedUntil)
  return wished.getTime() > now.getTime()
    ? { date: localDateValue(wished), time: localTimeValue(wished) }
    : { date: dateInDays(DEFAULT_LOAN_DAYS, now), time: END_OF_DAY }
}
