import { z } from 'zod/mini'
import { named } from './common'
import { ZHandoverStatus } from './handovers'

export const ACTIVITY_TYPES = [
  'PENDING_HANDOVER',
  'CONFIRMED_HANDOVER',
  'NEW_ITEM',
  'AUTO_TRANSFER',
  'CIRCLE_INVITATION',
  'REMOVED_FROM_CIRCLE',
  // h-borrow (issue 26, docs/decisions/0048): asks to borrow and the waiting list.
  'BORROW_REQUESTED',
  'BORROW_DECLINED',
  'BORROW_OFFERED',
  // Issue 26 (h-loans, docs/decisions/0047): the steps of a loan; data ZLoanActivityData.
  'LOAN_STARTED',
  'LOAN_RETURN_REQUESTED',
  'LOAN_RETURNED',
  'LOAN_EXTENSION_REQUESTED',
  'LOAN_EXTENSION_ANSWERED',
  'LOAN_DUE_CHANGED',
  'LOAN_RECALLED',
  // Issue 26, reminders (h-reminders): to the borrower before and after the return date, to the lender once overdue.
  'LOAN_DUE_SOON',
  'LOAN_DUE_TODAY',
  'LOAN_OVERDUE',
  'LOAN_OVERDUE_LENDER',
] as const
export const ZActivityType = z.enum(ACTIVITY_TYPES)
export type TActivityType = z.infer<typeof ZActivityType>

const ZName = z.object({ name: z.string() })

/** PENDING_HANDOVER, CONFIRMED_HANDOVER and AUTO_TRANSFER (spec 000 §3). Never a comment or secret. */
export const ZHandoverActivityData = z.object({
  item: z.object({ id: z.uuid(), name: z.string() }),
  sender: ZName,
  receiver: ZName,
  circleId: z.uuid(),
  handoverId: z.nullable(z.uuid()),
  /** AUTO_TRANSFER since issue 23: the holder left the circle, or the admin removed them. */
  reason: z.optional(z.enum(['LEFT', 'REMOVED'])),
  /** Issue 26: a LOAN request (PENDING_HANDOVER) says so, with its return date. */
  kind: z.optional(z.enum(['TRANSFER', 'LOAN', 'RETURN'])),
  dueAt: z.optional(z.nullable(z.iso.datetime())),
})
/** NEW_ITEM: the item's own id and name, its owner and circle. */
export const ZNewItemActivityData = z.object({
  id: z.uuid(),
  name: z.string(),
  owner: ZName,
  circle: z.object({ id: z.uuid(), name: z.string() }),
})
/** CIRCLE_INVITATION: the circle and the inviting admin. */
export const ZInvitationActivityData = z.object({
  circle: z.object({ id: z.uuid(), name: z.string() }),
  admin: z.optional(ZName),
})

/** REMOVED_FROM_CIRCLE (issue 23): the admin removed the reader from the circle. */
export const ZRemovedActivityData = z.object({
  circle: z.object({ id: z.uuid(), name: z.string() }),
  admin: ZName,
})

/**
 * BORROW_REQUESTED (to the owner: someone asked), BORROW_DECLINED (to the asker, never the reason: the
 * feed names it only), BORROW_OFFERED (to the owner: the next in line was offered the item on its
 * return, as a LOAN handover request the owner may cancel). Never the ask's message.
 */
export const ZBorrowActivityData = z.object({
  item: z.object({ id: z.uuid(), name: z.string() }),
  asker: ZName,
  owner: ZName,
  circleId: z.uuid(),
  borrowRequestId: z.uuid(),
  /** BORROW_OFFERED: the LOAN handover request made for the asker. */
  handoverId: z.optional(z.nullable(z.uuid())),
})

/**
 * The loan entries (issue 26): LOAN_STARTED (lender and borrower), LOAN_RETURN_REQUESTED (whoever
 * confirms the return; `startedBy`), LOAN_RETURNED (both), LOAN_EXTENSION_REQUESTED (lender; `dueAt` the
 * wished date), LOAN_EXTENSION_ANSWERED (borrower; `accepted`), LOAN_DUE_CHANGED (borrower; `dueAt` new,
 * `previousDueAt`), LOAN_RECALLED (lender, borrower and the circle's admin; `reason`, `departed`). Never a message's text.
 */
export const ZLoanActivityData = z.object({
  item: z.object({ id: z.uuid(), name: z.string() }),
  lender: ZName,
  borrower: ZName,
  circleId: z.uuid(),
  loanId: z.uuid(),
  handoverId: z.nullable(z.uuid()),
  dueAt: z.nullable(z.iso.datetime()),
  previousDueAt: z.optional(z.nullable(z.iso.datetime())),
  startedBy: z.optional(z.enum(['BORROWER', 'LENDER'])),
  accepted: z.optional(z.boolean()),
  reason: z.optional(z.enum(['LEFT', 'REMOVED'])),
  /** LOAN_RECALLED: who is no longer in the circle. */
  departed: z.optional(z.enum(['BORROWER', 'LENDER'])),
})
export type TLoanActivityData = z.infer<typeof ZLoanActivityData>

/**
 * LOAN_DUE_SOON, LOAN_DUE_TODAY, LOAN_OVERDUE (to the borrower) and LOAN_OVERDUE_LENDER (to the lender),
 * issue 26: the loan, its item, the other party and the return date. `overdueNotice` counts the overdue
 * notices (1 the day after, then weekly up to 3).
 */
export const ZLoanReminderActivityData = z.object({
  loanId: z.uuid(),
  item: z.object({ id: z.uuid(), name: z.string() }),
  circleId: z.uuid(),
  lender: ZName,
  borrower: ZName,
  dueAt: z.iso.datetime(),
  overdueNotice: z.optional(z.number().check(z.int(), z.gte(1), z.lte(3))),
})
export type TLoanReminderActivityData = z.infer<typeof ZLoanReminderActivityData>

const activity = <T extends TActivityType, D extends z.ZodMiniType>(type: T, data: D) =>
  z.object({
    id: z.uuid(),
    type: z.literal(type),
    timestamp: z.iso.datetime(),
    /** A plain English summary; the app words each entry itself from `type` and `data`. */
    title: z.string(),
    data,
    /**
     * PENDING_HANDOVER only: what became of the request since (read with the feed, docs/decisions/0029),
     * so an answered or cancelled request no longer reads as open. A request gone from the database
     * (cancelled before cancellations were kept) is CANCELLED.
     */
    handoverStatus: z.optional(ZHandoverStatus),
  })

/** One entry of a user's activity feed (spec 000 §3), written in the transaction of its cause. */
export const ZActivity = named(
  z.discriminatedUnion('type', [
    activity('PENDING_HANDOVER', ZHandoverActivityData),
    activity('CONFIRMED_HANDOVER', ZHandoverActivityData),
    activity('AUTO_TRANSFER', ZHandoverActivityData),
    activity('NEW_ITEM', ZNewItemActivityData),
    activity('CIRCLE_INVITATION', ZInvitationActivityData),
    activity('REMOVED_FROM_CIRCLE', ZRemovedActivityData),
    activity('BORROW_REQUESTED', ZBorrowActivityData),
    activity('BORROW_DECLINED', ZBorrowActivityData),
    activity('BORROW_OFFERED', ZBorrowActivityData),
    activity('LOAN_STARTED', ZLoanActivityData),
    activity('LOAN_RETURN_REQUESTED', ZLoanActivityData),
    activity('LOAN_RETURNED', ZLoanActivityData),
    activity('LOAN_EXTENSION_REQUESTED', ZLoanActivityData),
    activity('LOAN_EXTENSION_ANSWERED', ZLoanActivityData),
    activity('LOAN_DUE_CHANGED', ZLoanActivityData),
    activity('LOAN_RECALLED', ZLoanActivityData),
    activity('LOAN_DUE_SOON', ZLoanReminderActivityData),
    activity('LOAN_DUE_TODAY', ZLoanReminderActivityData),
    activity('LOAN_OVERDUE', ZLoanReminderActivityData),
    activity('LOAN_OVERDUE_LENDER', ZLoanReminderActivityData),
  ]),
  'Activity',
)
export type TActivity = z.infer<typeof ZActivity>
export type THandoverActivityData = z.infer<typeof ZHandoverActivityData>
export type TNewItemActivityData = z.infer<typeof ZNewItemActivityData>
export type TInvitationActivityData = z.infer<typeof ZInvitationActivityData>
export type TRemovedActivityData = z.infer<typeof ZRemovedActivityData>
export type TBorrowActivityData = z.infer<typeof ZBorrowActivityData>

/** GET /api/activities/recent: newest first, at most LIMITS.dashboardActivities. */
export const ZRecentActivitiesResponse = z.object({ activities: z.array(ZActivity) })
export type TRecentActivitiesResponse = z.infer<typeof ZRecentActivitiesResponse>

/** GET /api/dashboard/stats (spec 000 §3 "Dashboard stats"; the spec leaves the path open). */
export const ZDashboardStats = named(
  z.object({
    totalCircles: z.number().check(z.int(), z.nonnegative()),
    /** Handovers waiting for an answer that the user sent or is asked to accept. */
    pendingHandovers: z.number().check(z.int(), z.nonnegative()),
    /** Items the user holds now. */
    ownedItems: z.number().check(z.int(), z.nonnegative()),
  }),
  'DashboardStats',
)
export type TDashboardStats = z.infer<typeof ZDashboardStats>
