import { createHmac } from 'node:crypto'
import { MESSAGES, type TUser } from '@circles/shared'
import type { AppContext } from '../../context'
import { AppError } from '../../lib/errors'
import { hashToken } from '../../lib/tokens'
import { type IcalEvent, calendar } from './ical'
import * as repo from './calendar.repository'

const notFound = () => new AppError('NOT_FOUND', MESSAGES.notFound)

/** The calendar day of an instant in a zone, YYYY-MM-DD, and whether it is the end of that day. */
function localDay(instant: Date, timeZone: string): { date: string; endOfDay: boolean } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  )
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    endOfDay: parts.hour === '23' && parts.minute === '59',
  }
}

const SUMMARY = {
  en: {
    name: 'Circles: loans',
    borrowed: (item: string, lender: string) => `Return ${item} to ${lender}`,
    lent: (item: string, borrower: string) => `${item} due back from ${borrower}`,
  },
  de: {
    name: 'Circles: Ausleihen',
    borrowed: (item: string, lender: string) => `${item} an ${lender} zurückgeben`,
    lent: (item: string, borrower: string) => `${item} kommt von ${borrower} zurück`,
  },
} as const

/**
 * The personal calendar feed (issue 26, docs/decisions/0049). The secret URL's token is an HMAC of the
 * person's id and the feed's creation time under a key derived from the session secret: the database
 * keeps only its SHA-256 hash, yet the profile can show the URL again. A new link replaces the old one
 * (a new creation time), turning it off deletes the row; either way the old URL answers 404 at once.
 */
export function createCalendarService(ctx: AppContext, clock: () => Date, secret: string) {
  const key = createHmac('sha256', secret).update('circles calendar feed v1').digest()
  const tokenOf = (userId: string, createdAt: Date) =>
    createHmac('sha256', key).update(`${userId}.${createdAt.getTime()}`).digest('base64url')
  const urlOf = (token: string) => `${ctx.config.publicUrl}/api/calendar/${token}.ics`
  const host = new URL(ctx.config.publicUrl).host

  async function show(actor: TUser): Promise<{ url: string | null }> {
    const feed = await repo.findFeed(ctx.db, actor.id)
    return { url: feed ? urlOf(tokenOf(actor.id, feed.createdAt)) : null }
  }

  async function renew(actor: TUser): Promise<{ url: string }> {
    const token = await ctx.db.transaction(async (tx) => {
      const old = await repo.findFeed(tx, actor.id)
      let createdAt = new Date(Math.floor(clock().getTime()))
      // Two renewals in the same millisecond must still give a new URL.
      if (old && old.createdAt.getTime() >= createdAt.getTime())
        createdAt = new Date(old.createdAt.getTime() + 1)
      const fresh = tokenOf(actor.id, createdAt)
      await repo.replaceFeed(tx, actor.id, hashToken(fresh), createdAt)
      return fresh
    })
    ctx.log.info({ userId: actor.id }, 'calendar feed link made')
    return { url: urlOf(token) }
  }

  async function revoke(actor: TUser): Promise<{ url: null }> {
    await ctx.db.transaction((tx) => repo.deleteFeed(tx, actor.id))
    ctx.log.info({ userId: actor.id }, 'calendar feed turned off')
    return { url: null }
  }

  /** The feed by its token (`<token>.ics`); 404 for anything else. Misses count per address. */
  async function feed(param: string, address: string): Promise<string> {
    const attempt = await ctx.rateLimits.consume(
      [['calendarFeedMissesPerAddress', address]],
      MESSAGES.tooManyRequests,
    )
    const token = param.replace(/\.ics$/, '')
    const owner = await repo.findOwnerByHash(ctx.db, hashToken(token))
    if (!owner || owner.deletedAt) throw notFound()
    await attempt.refund()
    const words = SUMMARY[owner.language]
    const zone = owner.timeZone ?? 'UTC'
    const loans = await repo.activeLoansOf(ctx.db, owner.userId)
    const events: IcalEvent[] = loans.map((loan) => {
      const borrowed = loan.borrowerId === owner.userId
      const day = localDay(loan.dueAt, zone)
      return {
        uid: `loan-${loan.id}@${host}`,
        summary: borrowed
          ? words.borrowed(loan.itemName, loan.lenderName)
          : words.lent(loan.itemName, loan.borrowerName),
        url: `${ctx.config.publicUrl}/items/${loan.itemId}`,
        // A loan due at the end of a day (the default return time) is that day; any other time is timed.
        ...(day.endOfDay ? { date: day.date } : { start: loan.dueAt, minutes: 30 }),
      }
    })
    return calendar({ name: words.name, stamp: clock(), events })
  }

  return { show, renew, revoke, feed }
}

export type CalendarService = ReturnType<typeof createCalendarService>
