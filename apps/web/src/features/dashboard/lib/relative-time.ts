import { dateFormat, relativeFormat } from '@/lib/intl-formats'
const MINUTE = 60
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/**
 * Spec 000 §9: under 60 s in seconds, under 60 min in minutes, under 24 h in hours, under 7 days in
 * days, otherwise a short date; in the UI language ("2 minutes ago", "vor 2 Minuten").
 */
export function relativeTime(iso: string, language: string, now: number = Date.now()): string {
  const seconds = Math.max(0, Math.floor((now - Date.parse(iso)) / 1000))
  const format = (value: number, unit: Intl.RelativeTimeFormatUnit) =>
    relativeFormat(language).format(-value, unit)
  if (seconds < MINUTE) return format(seconds, 'second')
  if (seconds < HOUR) return format(Math.floor(seconds / MINUTE), 'minute')
  if (seconds < DAY) return format(Math.floor(seconds / HOUR), 'hour')
  if (seconds < 7 * DAY) return format(Math.floor(seconds / DAY), 'day')
  return dateFormat(language, { dateStyle: 'medium' }).format(new Date(iso))
}
