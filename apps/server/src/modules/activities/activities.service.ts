import {
  LIMITS,
  type TActivity,
  type TBorrowActivityData,
  type TDashboardStats,
  type THandoverStatus,
  type THandoverActivityData,
  type TLoanActivityData,
  type TInvitationActivityData,
  type TLoanReminderActivityData,
  type TNewItemActivityData,
  type TRemovedActivityData,
  type TUser,
} from '@circles/shared'
import type { AppContext } from '../../context'
import type { Executor } from '../../db/client'
import * as repo from './activities.repository'
import { type Notice, toNotice } from '../../lib/events'

type HandoverActivityType = 'PENDING_HANDOVER' | 'CONFIRMED_HANDOVER' | 'AUTO_TRANSFER'

/** A person's name in a title; a deleted person's erased name ('') reads as such (docs/decisions/0035). */
const shown = (name: string) => name || 'A deleted member'

function handoverTitle(type: HandoverActivityType, d: THandoverActivityData): string {
  const sender = shown(d.sender.name)
  const receiver = shown(d.receiver.name)
  if (type === 'PENDING_HANDOVER' && d.kind === 'LOAN') return `${sender} wants to lend you ${d.item.name}`
  if (type === 'PENDING_HANDOVER') return `${sender} wants to hand you ${d.item.name}`
  if (type === 'CONFIRMED_HANDOVER') return `${d.item.name} went from ${sender} to ${receiver}`
  const why =
    d.reason === 'REMOVED'
      ? ` when the admin removed ${sender} from the circle`
      : d.reason === 'LEFT'
        ? ` when ${sender} left the circle`
        : ''
  return `${d.item.name} passed from ${sender} to ${receiver}${why}`
}

type BorrowActivityType = 'BORROW_REQUESTED' | 'BORROW_DECLINED' | 'BORROW_OFFERED'

function borrowTitle(type: BorrowActivityType, d: TBorrowActivityData): string {
  const asker = shown(d.asker.name)
  const owner = shown(d.owner.name)
  if (type === 'BORROW_REQUESTED') return `${asker} asks to borrow ${d.item.name}`
  if (type === 'BORROW_DECLINED') return `${owner} declined your request to borrow ${d.item.name}`
  return `${d.item.name} was offered to ${asker}, next in line`
}

/** The loan entries (issue 26). */
export type LoanActivityType =
  | 'LOAN_STARTED'
  | 'LOAN_RETURN_REQUESTED'
  | 'LOAN_RETURNED'
  | 'LOAN_EXTENSION_REQUESTED'
  | 'LOAN_EXTENSION_ANSWERED'
  | 'LOAN_DUE_CHANGED'
  | 'LOAN_RECALLED'

/** Dates in a title are UTC days (the app words each entry itself, in the reader's zone). */
const day = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : '')

function loanTitle(type: LoanActivityType, d: TLoanActivityData): string {
  const lender = shown(d.lender.name)
  const borrower = shown(d.borrower.name)
  const item = d.item.name
  switch (type) {
    case 'LOAN_STARTED':
      return `${lender} lent ${item} to ${borrower} until ${day(d.dueAt)}`
    case 'LOAN_RETURN_REQUESTED':
      return d.startedBy === 'LENDER'
        ? `${lender} recorded that ${borrower} returned ${item}`
        : `${borrower} is returning ${item} to ${lender}`
    case 'LOAN_RETURNED':
      return `${borrower} returned ${item} to ${lender}`
    case 'LOAN_EXTENSION_REQUESTED':
      return `${borrower} asks to keep ${item} until ${day(d.dueAt)}`
    case 'LOAN_EXTENSION_ANSWERED':
      return d.accepted
        ? `${lender} let ${borrower} keep ${item} until ${day(d.dueAt)}`
        : `${lender} declined a later return date for ${item}`
    case 'LOAN_DUE_CHANGED':
      return `${lender} changed the return date of ${item} to ${day(d.dueAt)}`
    case 'LOAN_RECALLED': {
      const who = d.reason === 'REMOVED' ? 'was removed from' : 'left'
      return `${item} is to be returned to ${lender}: ${d.departed === 'LENDER' ? lender : borrower} ${who} the circle`
    }
  }
}

type LoanReminderType = 'LOAN_DUE_SOON' | 'LOAN_DUE_TODAY' | 'LOAN_OVERDUE' | 'LOAN_OVERDUE_LENDER'

/** Issue 26: a reminder's title; the app words it itself in the reader's language and time zone. */
function loanReminderTitle(type: LoanReminderType, d: TLoanReminderActivityData): string {
  const lender = shown(d.lender.name)
  if (type === 'LOAN_DUE_SOON') return `Return ${d.item.name} to ${lender} soon`
  if (type === 'LOAN_DUE_TODAY') return `Return ${d.item.name} to ${lender} today`
  if (type === 'LOAN_OVERDUE') return `${d.item.name} is overdue: please return it to ${lender}`
  return `${d.item.name} is overdue from ${shown(d.borrower.name)}`
}

/** The plain English title of an entry, from its type and data (written with the entry, and again when names are erased). */
type ActivityEntry<A = TActivity> = A extends { type: infer T; data: infer D } ? { type: T; data: D } : never

export function activityTitle(activity: ActivityEntry): string {
  switch (activity.type) {
    case 'PENDING_HANDOVER':
    case 'CONFIRMED_HANDOVER':
    case 'AUTO_TRANSFER':
      return handoverTitle(activity.type, activity.data)
    case 'NEW_ITEM':
      return `${shown(activity.data.owner.name)} added ${activity.data.name} to ${activity.data.circle.name}`
    case 'CIRCLE_INVITATION':
      return `${activity.data.admin?.name || 'Administrator'} invited you to ${activity.data.circle.name}`
    case 'REMOVED_FROM_CIRCLE':
      return `${shown(activity.data.admin.name)} removed you from ${activity.data.circle.name}`
    case 'BORROW_REQUESTED':
    case 'BORROW_DECLINED':
    case 'BORROW_OFFERED':
      return borrowTitle(activity.type, activity.data)
    case 'LOAN_STARTED':
    case 'LOAN_RETURN_REQUESTED':
    case 'LOAN_RETURNED':
    case 'LOAN_EXTENSION_REQUESTED':
    case 'LOAN_EXTENSION_ANSWERED':
    case 'LOAN_DUE_CHANGED':
    case 'LOAN_RECALLED':
      return loanTitle(activity.type, activity.data)
    case 'LOAN_DUE_SOON':
    case 'LOAN_DUE_TODAY':
    case 'LOAN_OVERDUE':
    case 'LOAN_OVERDUE_LENDER':
      return loanReminderTitle(activity.type, activity.data)
  }
}

/**
 * The activity feed (spec 000 §3). Other services write entries inside their own transaction and
 * publish the returned notices after it commits (`ctx.events.publish('activity.created', …)`).
 */
export function createActivitiesService(ctx: AppContext) {
  /** A handover's entry for its parties: the receiver for a request, both for a confirmation. */
  async function recordHandover(
    tx: Executor,
    type: HandoverActivityType,
    recipients: string[],
    data: THandoverActivityData,
  ): Promise<Notice[]> {
    const title = handoverTitle(type, data)
    const rows = await repo.insertActivities(
      tx,
      [...new Set(recipients)].map((userId) => ({ userId, type, title, data })),
    )
    if (type !== 'PENDING_HANDOVER') return rows.map(toNotice)
    // A new request is open: the live entry says so, as the feed will until it is answered.
    return rows.map((row) => {
      const notice = toNotice(row)
      return { ...notice, activity: { ...notice.activity, handoverStatus: 'PENDING' } as TActivity }
    })
  }

  /** A loan's entry (issue 26) for `recipients`, in the transaction of the step. */
  async function recordLoan(
    tx: Executor,
    type: LoanActivityType,
    recipients: string[],
    data: TLoanActivityData,
  ): Promise<Notice[]> {
    const title = loanTitle(type, data)
    const rows = await repo.insertActivities(
      tx,
      [...new Set(recipients)].map((userId) => ({ userId, type, title, data })),
    )
    return rows.map(toNotice)
  }

  /** Every other member of the circle hears of a new item. */
  async function recordNewItem(tx: Executor, creatorId: string, data: TNewItemActivityData) {
    const title = activityTitle({ type: 'NEW_ITEM', data })
    const rows = await repo.insertForMembers(tx, data.circle.id, creatorId, { type: 'NEW_ITEM', title, data })
    return rows.map(toNotice)
  }

  /** An invited person who already has an account finds the invitation in their feed too. */
  async function recordInvitation(tx: Executor, userId: string, data: TInvitationActivityData) {
    const title = activityTitle({ type: 'CIRCLE_INVITATION', data })
    const rows = await repo.insertActivities(tx, [{ userId, type: 'CIRCLE_INVITATION', title, data }])
    return rows.map(toNotice)
  }

  /** The member the admin removed finds it in their feed, and live (issue 23). */
  async function recordRemoval(tx: Executor, userId: string, data: TRemovedActivityData) {
    const title = activityTitle({ type: 'REMOVED_FROM_CIRCLE', data })
    const rows = await repo.insertActivities(tx, [{ userId, type: 'REMOVED_FROM_CIRCLE', title, data }])
    return rows.map(toNotice)
  }

  /** An ask to borrow's entry (docs/decisions/0048): to the owner, or to the asker. */
  async function recordBorrow(
    tx: Executor,
    type: BorrowActivityType,
    recipients: string[],
    data: TBorrowActivityData,
  ): Promise<Notice[]> {
    const title = borrowTitle(type, data)
    const rows = await repo.insertActivities(
      tx,
      [...new Set(recipients)].map((userId) => ({ userId, type, title, data })),
    )
    return rows.map(toNotice)
  }

  /** Issue 26: a batch of loan reminders, one entry each, in the reminder scan's transaction. */
  async function recordLoanReminders(
    tx: Executor,
    entries: { userId: string; type: LoanReminderType; data: TLoanReminderActivityData }[],
  ): Promise<Notice[]> {
    const rows = await repo.insertActivitiesBatch(
      tx,
      entries.map((e) => ({ ...e, title: loanReminderTitle(e.type, e.data) })),
    )
    return rows.map(toNotice)
  }

  function publish(notices: Notice[]) {
    if (notices.length > 0) ctx.events.publish('activity.created', { notices })
  }

  /** The feed; a request's entry says what became of it (docs/decisions/0029). */
  async function recent(actor: TUser): Promise<TActivity[]> {
    const rows = await repo.recentFor(ctx.db, actor.id, LIMITS.dashboardActivities)
    return rows.map((row) => {
      const { activity } = toNotice(row)
      if (activity.type !== 'PENDING_HANDOVER') return activity
      return { ...activity, handoverStatus: (row.handoverStatus ?? 'CANCELLED') as THandoverStatus }
    })
  }

  function stats(actor: TUser): Promise<TDashboardStats> {
    return repo.statsFor(ctx.db, actor.id)
  }

  /**
   * Account deletion (docs/decisions/0035), in its transaction: in every entry about the circles
   * `circleIds`, each name snapshot that is the deleted person's becomes '' and the title is written
   * again. A name is theirs when the entry's handover names them as its party, or when it equals one of
   * `names` (every name they are known to have had): a namesake in the same circle is erased too,
   * which errs on the side of the erasure. Returns how many entries changed.
   */
  async function eraseNameSnapshots(
    tx: Executor,
    userId: string,
    circleIds: string[],
    names: string[],
  ): Promise<number> {
    if (circleIds.length === 0) return 0
    const known = new Set(names.filter((name) => name !== ''))
    const rows = await repo.entriesOfCircles(tx, circleIds)
    let changed = 0
    for (const row of rows) {
      const data = structuredClone(row.data) as Record<string, { name?: string } | undefined>
      const erase = (key: string, isParty = false) => {
        const person = data[key]
        if (
          person &&
          typeof person.name === 'string' &&
          person.name !== '' &&
          (isParty || known.has(person.name))
        ) {
          person.name = ''
          return true
        }
        return false
      }
      const touched = [
        erase('sender', row.senderId === userId),
        erase('receiver', row.receiverId === userId),
        erase('owner'),
        erase('asker'),
        erase('admin'),
        // Issue 26: a loan's entries name its lender and borrower.
        erase('lender'),
        erase('borrower'),
      ].some(Boolean)
      if (!touched) continue
      const title = activityTitle({ type: row.type, data } as ActivityEntry)
      await repo.updateEntry(tx, row.id, data, title)
      changed += 1
    }
    return changed
  }

  return {
    recordHandover,
    recordLoan,
    recordNewItem,
    recordInvitation,
    recordRemoval,
    recordBorrow,
    recordLoanReminders,
    publish,
    recent,
    stats,
    eraseNameSnapshots,
  }
}

export type ActivitiesService = ReturnType<typeof createActivitiesService>
