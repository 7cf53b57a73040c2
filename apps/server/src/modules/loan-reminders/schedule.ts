/**
 * When each loan reminder is due (issue 26, docs/decisions/0049). Pure functions of the loan, the
 * recipient's time zone and "now"; no I/O, so the rules are tested on their own.
 *
 * - Before the return date, one reminder per configured offset (LOAN_REMINDER_OFFSETS): `Nd` at
 *   08:00 on the calendar day N days before the due day, in the borrower's time zone (`0d`: on the
 *   day), but at the latest one hour before the due time; `Nh` exactly N hours before the due time.
 *   A reminder whose moment came before the loan started is not sent (the borrower just agreed to the
 *   date), and only the latest reminder whose moment has come is sent (after an outage, not three at
 *   once).
 * - Overdue, to the borrower: at 08:00 on the day after the due day, then 7 and 14 days later; at most
 *   three. Again only the latest whose moment has come.
 * - Overdue, to the lender: once, at 08:00 on the day after the due day in the lender's time zone.
 */

export { canonicalTimeZone } from '../../lib/time-zones'

export const REMINDER_HOUR = 8
export const OVERDUE_NOTICES = 3
export const OVERDUE_EVERY_DAYS = 7
const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS

export type ReminderType = 'LOAN_DUE_SOON' | 'LOAN_DUE_TODAY' | 'LOAN_OVERDUE' | 'LOAN_OVERDUE_LENDER'

export interface DueReminder {
  /** The claim's kind in loan_reminders: `BEFORE_<offset>`, `OVERDUE_<n>` or `LENDER_OVERDUE`. */
  kind: string
  type: ReminderType
  /** When it became due. */
  at: Date
  /** OVERDUE_n: n. */
  overdueNotice?: number
}

export interface LocalDate {
  year: number
  month: number
  day: number
}

const formatters = new Map<string, Intl.DateTimeFormat>()
function partsFormatter(timeZone: string) {
  let format = formatters.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    formatters.set(timeZone, format)
  }
  return format
}

/** How far the zone's wall clock is ahead of UTC at that instant, in ms (straight from Intl). */
function measuredOffsetMs(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {}
  for (const part of partsFormatter(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value)
  }
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!)
  return asUtc - Math.floor(instant / 1000) * 1000
}

/**
 * Offsets by zone and quarter hour: every zone's offset changes on a quarter hour of UTC, so one Intl
 * call per zone and quarter hour serves every loan due in it (a scan reads thousands; Intl's
 * formatToParts is its most expensive step otherwise). Cleared when it grows past 20,000 entries.
 */
const QUARTER_HOUR = 15 * 60_000
const offsets = new Map<string, number>()
function offsetMs(instant: Date, timeZone: string): number {
  const bucket = Math.floor(instant.getTime() / QUARTER_HOUR)
  const key = `${timeZone}|${bucket}`
  let offset = offsets.get(key)
  if (offset === undefined) {
    if (offsets.size > 20_000) offsets.clear()
    offset = measuredOffsetMs(bucket * QUARTER_HOUR, timeZone)
    offsets.set(key, offset)
  }
  return offset
}

/** The calendar day of an instant in a zone. */
export function localDate(instant: Date, timeZone: string): LocalDate {
  const wall = new Date(instant.getTime() + offsetMs(instant, timeZone))
  return { year: wall.getUTCFullYear(), month: wall.getUTCMonth() + 1, day: wall.getUTCDate() }
}

export function addDays(date: LocalDate, days: number): LocalDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days))
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }
}

/**
 * The instant when the zone's clock shows `hour`:00 on `date`. Across a daylight-saving switch the
 * offset of that moment is used (two passes); an hour that does not exist (spring forward) comes out
 * one hour later, as a clock on the wall would show it.
 */
export function atLocalHour(date: LocalDate, hour: number, timeZone: string): Date {
  const naive = Date.UTC(date.year, date.month - 1, date.day, hour)
  const first = naive - offsetMs(new Date(naive), timeZone)
  const second = naive - offsetMs(new Date(first), timeZone)
  return new Date(second)
}

export interface Offset {
  /** As configured: `1d`, `0d`, `3h`. */
  label: string
  amount: number
  unit: 'd' | 'h'
}

export function parseOffsets(labels: string[]): Offset[] {
  return labels.map((label) => ({
    label,
    amount: Number(label.slice(0, -1)),
    unit: label.endsWith('h') ? 'h' : 'd',
  }))
}

export function beforeMoment(offset: Offset, dueAt: Date, timeZone: string): Date {
  if (offset.unit === 'h') return new Date(dueAt.getTime() - offset.amount * HOUR_MS)
  const day = addDays(localDate(dueAt, timeZone), -offset.amount)
  const at = atLocalHour(day, REMINDER_HOUR, timeZone)
  return new Date(Math.min(at.getTime(), dueAt.getTime() - HOUR_MS))
}

/** The n-th overdue notice (1-based): 08:00 the day after the due day, then every 7 days. */
export function overdueMoment(n: number, dueAt: Date, timeZone: string): Date {
  const day = addDays(localDate(dueAt, timeZone), 1 + OVERDUE_EVERY_DAYS * (n - 1))
  return atLocalHour(day, REMINDER_HOUR, timeZone)
}

const sameDay = (a: LocalDate, b: LocalDate) => a.year === b.year && a.month === b.month && a.day === b.day

export interface LoanTimes {
  dueAt: Date
  startedAt: Date
}

/** The borrower's reminder to send now, if any (the latest one whose moment has come). */
export function borrowerReminder(
  loan: LoanTimes,
  now: Date,
  offsets: Offset[],
  timeZone: string,
): DueReminder | null {
  if (now < loan.dueAt) {
    let best: DueReminder | null = null
    for (const offset of offsets) {
      const at = beforeMoment(offset, loan.dueAt, timeZone)
      if (at > now || at < loan.startedAt) continue
      if (best && best.at >= at) continue
      const today = sameDay(localDate(at, timeZone), localDate(loan.dueAt, timeZone))
      best = { kind: `BEFORE_${offset.label}`, type: today ? 'LOAN_DUE_TODAY' : 'LOAN_DUE_SOON', at }
    }
    return best
  }
  for (let n = OVERDUE_NOTICES; n >= 1; n--) {
    const at = overdueMoment(n, loan.dueAt, timeZone)
    if (at <= now) return { kind: `OVERDUE_${n}`, type: 'LOAN_OVERDUE', at, overdueNotice: n }
  }
  return null
}

/** The lender's one overdue notice, once its moment has come. */
export function lenderReminder(loan: LoanTimes, now: Date, timeZone: string): DueReminder | null {
  const at = overdueMoment(1, loan.dueAt, timeZone)
  return at <= now ? { kind: 'LENDER_OVERDUE', type: 'LOAN_OVERDUE_LENDER', at } : null
}

/**
 * The due dates a scan at `now` must look at: a reminder `Nd` can come up to N+1 days (and a zone's
 * 14 hours) before the due date, the last overdue notice 15 days after the due day.
 */
export function scanWindow(now: Date, offsets: Offset[]): { from: Date; to: Date } {
  const ahead = Math.max(
    0,
    ...offsets.map((o) => (o.unit === 'h' ? o.amount * HOUR_MS : (o.amount + 2) * DAY_MS)),
  )
  const behind = (1 + OVERDUE_EVERY_DAYS * (OVERDUE_NOTICES - 1) + 2) * DAY_MS
  return { from: new Date(now.getTime() - behind), to: new Date(now.getTime() + ahead) }
}
