import { describe, expect, it } from 'vitest'
import {
  atLocalHour,
  beforeMoment,
  borrowerReminder,
  canonicalTimeZone,
  lenderReminder,
  overdueMoment,
  parseOffsets,
  scanWindow,
} from './schedule'

const at = (iso: string) => new Date(iso)
const offsets = parseOffsets(['1d', '0d'])
const [oneDay, sameDay] = offsets as [
  ReturnType<typeof parseOffsets>[number],
  ReturnType<typeof parseOffsets>[number],
]

describe('loan reminder schedule', () => {
  it('knows IANA zones and refuses others', () => {
    expect(canonicalTimeZone('Europe/Berlin')).toBe('Europe/Berlin')
    expect(canonicalTimeZone('UTC')).toBe('UTC')
    expect(canonicalTimeZone('Mars/Olympus')).toBeNull()
    expect(canonicalTimeZone('')).toBeNull()
  })

  it('puts 08:00 local on the right instant on both sides of the Berlin switches', () => {
    expect(atLocalHour({ year: 2026, month: 3, day: 28 }, 8, 'Europe/Berlin').toISOString()).toBe(
      '2026-03-28T07:00:00.000Z',
    )
    expect(atLocalHour({ year: 2026, month: 3, day: 29 }, 8, 'Europe/Berlin').toISOString()).toBe(
      '2026-03-29T06:00:00.000Z',
    )
    expect(atLocalHour({ year: 2026, month: 10, day: 25 }, 8, 'Europe/Berlin').toISOString()).toBe(
      '2026-10-25T07:00:00.000Z',
    )
    expect(atLocalHour({ year: 2026, month: 10, day: 24 }, 8, 'Europe/Berlin').toISOString()).toBe(
      '2026-10-24T06:00:00.000Z',
    )
    // The hour that does not exist (spring forward) reads as the wall clock shows it: 03:30 CEST.
    expect(atLocalHour({ year: 2026, month: 3, day: 29 }, 2, 'Europe/Berlin').toISOString()).toBe(
      '2026-03-29T01:00:00.000Z',
    )
    expect(atLocalHour({ year: 2026, month: 5, day: 1 }, 8, 'America/New_York').toISOString()).toBe(
      '2026-05-01T12:00:00.000Z',
    )
  })

  it('reminds the day before and on the day at 08:00 in the borrower zone, across spring forward', () => {
    // Due Monday 30 March 18:00 CEST; the day before is the switch day.
    const dueAt = at('2026-03-30T16:00:00Z')
    expect(beforeMoment(oneDay, dueAt, 'Europe/Berlin').toISOString()).toBe('2026-03-29T06:00:00.000Z')
    expect(beforeMoment(sameDay, dueAt, 'Europe/Berlin').toISOString()).toBe('2026-03-30T06:00:00.000Z')
    expect(beforeMoment(oneDay, dueAt, 'UTC').toISOString()).toBe('2026-03-29T08:00:00.000Z')
    // Due at 07:30 on the day: "on the day" comes an hour before, not after the due time.
    expect(beforeMoment(sameDay, at('2026-06-10T05:30:00Z'), 'Europe/Berlin').toISOString()).toBe(
      '2026-06-10T04:30:00.000Z',
    )
    expect(beforeMoment(parseOffsets(['3h'])[0]!, dueAt, 'Europe/Berlin').toISOString()).toBe(
      '2026-03-30T13:00:00.000Z',
    )
  })

  it('sends the latest reminder whose moment came, never one from before the loan started', () => {
    const loan = { dueAt: at('2026-03-30T16:00:00Z'), startedAt: at('2026-03-20T10:00:00Z') }
    expect(borrowerReminder(loan, at('2026-03-29T05:59:00Z'), offsets, 'Europe/Berlin')).toBeNull()
    expect(borrowerReminder(loan, at('2026-03-29T06:00:00Z'), offsets, 'Europe/Berlin')).toMatchObject({
      kind: 'BEFORE_1d',
      type: 'LOAN_DUE_SOON',
    })
    expect(borrowerReminder(loan, at('2026-03-30T06:00:00Z'), offsets, 'Europe/Berlin')).toMatchObject({
      kind: 'BEFORE_0d',
      type: 'LOAN_DUE_TODAY',
    })
    // Lent on the morning of the day before, at 09:00: no "tomorrow" reminder, only "today".
    const late = { ...loan, startedAt: at('2026-03-29T07:00:00Z') }
    expect(borrowerReminder(late, at('2026-03-29T12:00:00Z'), offsets, 'Europe/Berlin')).toBeNull()
    expect(borrowerReminder(late, at('2026-03-30T06:00:00Z'), offsets, 'Europe/Berlin')?.kind).toBe(
      'BEFORE_0d',
    )
  })

  it('sends overdue notices the day after, then weekly, at most three; the lender once', () => {
    // Due Saturday 24 October 18:00 CEST; the day after is the autumn switch day.
    const loan = { dueAt: at('2026-10-24T16:00:00Z'), startedAt: at('2026-10-01T10:00:00Z') }
    expect(overdueMoment(1, loan.dueAt, 'Europe/Berlin').toISOString()).toBe('2026-10-25T07:00:00.000Z')
    expect(borrowerReminder(loan, at('2026-10-24T16:00:00Z'), offsets, 'Europe/Berlin')).toBeNull()
    expect(borrowerReminder(loan, at('2026-10-25T06:59:00Z'), offsets, 'Europe/Berlin')).toBeNull()
    expect(borrowerReminder(loan, at('2026-10-25T07:00:00Z'), offsets, 'Europe/Berlin')).toMatchObject({
      kind: 'OVERDUE_1',
      overdueNotice: 1,
    })
    expect(borrowerReminder(loan, at('2026-11-01T07:00:00Z'), offsets, 'Europe/Berlin')?.kind).toBe(
      'OVERDUE_2',
    )
    expect(borrowerReminder(loan, at('2026-11-08T07:00:00Z'), offsets, 'Europe/Berlin')?.kind).toBe(
      'OVERDUE_3',
    )
    expect(borrowerReminder(loan, at('2027-01-01T07:00:00Z'), offsets, 'Europe/Berlin')?.kind).toBe(
      'OVERDUE_3',
    )
    // The lender in New York hears at 08:00 their time.
    expect(lenderReminder(loan, at('2026-10-25T11:59:00Z'), 'America/New_York')).toBeNull()
    expect(lenderReminder(loan, at('2026-10-25T12:00:00Z'), 'America/New_York')?.kind).toBe('LENDER_OVERDUE')
  })

  it('scans the due dates that can have a reminder now, and no others', () => {
    const now = at('2026-05-10T12:00:00Z')
    const { from, to } = scanWindow(now, parseOffsets(['2d', '0d', '5h']))
    expect(to.toISOString()).toBe('2026-05-14T12:00:00.000Z')
    expect(from.toISOString()).toBe('2026-04-23T12:00:00.000Z')
    // A loan due before `from` has nothing left to send; one due after `to` nothing yet, in any zone.
    for (const zone of ['Etc/GMT+12', 'UTC', 'Pacific/Kiritimati']) {
      expect(overdueMoment(3, from, zone) <= now).toBe(true)
      const later = new Date(to.getTime() + 1)
      expect(beforeMoment(parseOffsets(['2d'])[0]!, later, zone) > now).toBe(true)
    }
  })
})
