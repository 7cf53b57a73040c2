import { dateFormat, relativeFormat } from '@/lib/intl-formats'
const DAY_MS = 24 * 60 * 60 * 1000
/** Spec 001 §9: under 30 days a date reads 'N days ago', otherwise as a short date. */
export const RELATIVE_DAYS_LIMIT = 30

export interface DescribedDate {
  /** 'relative' reads "3 days ago" / "today"; 'date' reads "Mar 12, 2025". */
  kind: 'relative' | 'date'
  text: string
}

/** Calendar days between two moments in the local time zone (today = 0, yesterday = 1). */
function daysBetween(from: Date, to: Date): number {
  const start = new Date(from.getFullYear(), from.getMonth(), from.getDate()).getTime()
  const end = new Date(to.getFullYear(), to.getMonth(), to.getDate()).getTime()
  return Math.round((end - start) / DAY_MS)
}

/** A short date in the UI language, e.g. "Mar 12, 2025" or "12.03.2025". */
export function formatShortDate(iso: string, language: string): string {
  return dateFormat(language, { dateStyle: 'medium' }).format(new Date(iso))
}

/** A date as the circle screens show it: relative under 30 days, else a short date, in `language`. */
export function describeDate(iso: string, language: string, now: Date = new Date()): DescribedDate {
  const date = new Date(iso)
  const days = daysBetween(date, now)
  // A date a little in the future (clock skew) still reads "today".
  if (days < RELATIVE_DAYS_LIMIT) {
    const past = Math.max(days, 0)
    // "today" and "yesterday" read better than "0 days ago"; from two days on it is 'N days ago'
    // (German would otherwise say "vorgestern").
    const relative = relativeFormat(language, { numeric: past <= 1 ? 'auto' : 'always' })
    return { kind: 'relative', text: relative.format(-past, 'day') }
  }
  return { kind: 'date', text: formatShortDate(iso, language) }
}
