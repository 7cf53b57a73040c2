import { z } from 'zod/mini'
import { LIMITS } from '../limits'
import { MESSAGES } from '../messages'
import { named, zText } from './common'
import { ZConditionInput } from './condition'

/**
 * Lending (issue 26, docs/decisions/0047). A loan starts when the receiver confirms a LOAN handover
 * request; the lender stays the item's owner, the borrower holds it until `dueAt`. A RETURN handover
 * ends it. Every start, return, change of date and automatic change appends a ledger block (v4).
 */
export const HANDOVER_KINDS = ['TRANSFER', 'LOAN', 'RETURN'] as const
export const ZHandoverKind = z.enum(HANDOVER_KINDS)
export type THandoverKind = z.infer<typeof ZHandoverKind>

export const LOAN_STATUSES = ['ACTIVE', 'RETURNED'] as const
export const ZLoanStatus = z.enum(LOAN_STATUSES)
export type TLoanStatus = z.infer<typeof ZLoanStatus>

/** Why a loan was recalled: its borrower left the circle or was removed from it. */
export const ZRecallReason = z.enum(['LEFT', 'REMOVED'])

export const ZLoanIdParams = z.object({ id: z.uuid({ error: MESSAGES.loanNotFound }) })
export const ZLoanExtensionParams = z.object({
  id: z.uuid({ error: MESSAGES.loanNotFound }),
  extensionId: z.uuid({ error: MESSAGES.loanNotFound }),
})

const optionalMessage = z.pipe(
  z.nullish(zText({ multiline: true }).check(z.maxLength(LIMITS.loanMessageMax, MESSAGES.loanMessageMax))),
  z.transform((v) => (v ? v : null)),
)

/** A return date: an ISO instant with an offset (the client picks the lender's end of day by default). */
export const ZDueAt = z.iso.datetime({ offset: true, error: MESSAGES.loanDueAtInvalid })

const ZPerson = z.object({ id: z.uuid(), name: z.string() })

/** A borrower's wish for another return date, pending or answered. */
export const ZLoanExtension = named(
  z.object({
    id: z.uuid(),
    loanId: z.uuid(),
    requestedBy: ZPerson,
    dueAt: z.iso.datetime(),
    message: z.nullable(z.string()),
    status: z.enum(['PENDING', 'ACCEPTED', 'DECLINED', 'CANCELLED']),
    createdAt: z.iso.datetime(),
    answeredAt: z.nullable(z.iso.datetime()),
  }),
  'LoanExtension',
)
export type TLoanExtension = z.infer<typeof ZLoanExtension>

/** A loan as its lender and borrower (and the circle's members) see it. */
export const ZLoan = named(
  z.object({
    id: z.uuid(),
    itemId: z.uuid(),
    circleId: z.uuid(),
    item: z.object({ name: z.string(), thumbnailUrl: z.nullable(z.string()) }),
    circle: z.object({ name: z.string() }),
    lender: ZPerson,
    borrower: ZPerson,
    status: ZLoanStatus,
    dueAt: z.iso.datetime(),
    /** ACTIVE and past `dueAt` (at the server's clock when answered). */
    overdue: z.boolean(),
    startedAt: z.iso.datetime(),
    returnedAt: z.nullable(z.iso.datetime()),
    /** The borrower left or was removed: the item is to go back to its lender. */
    recalledAt: z.nullable(z.iso.datetime()),
    recallReason: z.nullable(ZRecallReason),
    /** A RETURN handover waiting for its confirmation, if any. */
    pendingReturn: z.nullable(z.object({ handoverId: z.uuid(), startedBy: z.enum(['BORROWER', 'LENDER']) })),
    pendingExtension: z.nullable(ZLoanExtension),
  }),
  'Loan',
)
export type TLoan = z.infer<typeof ZLoan>

export const ZLoanResponse = z.object({ loan: ZLoan, message: z.optional(z.string()) })
export const ZLoanListResponse = z.object({ loans: z.array(ZLoan) })

/** GET /api/loans: `borrowed` (I am the borrower), `lent` (I am the lender); ACTIVE ones unless `all`. */
export const ZLoanListQuery = z.object({
  role: z._default(z.enum(['borrowed', 'lent']), 'borrowed'),
  status: z._default(z.enum(['active', 'all']), 'active'),
})

/** POST /api/loans/:id/return: the borrower starts a return, or the lender records one made in person. */
export const ZStartReturn = z.object({
  comment: optionalMessage,
  /** Issue 28: the condition the item comes back in (photos and a note). */
  condition: z.optional(ZConditionInput),
})
/** POST /api/loans/:id/extensions: the borrower asks for a later date. */
export const ZRequestExtension = z.object({ dueAt: ZDueAt, message: optionalMessage })
/** PUT /api/loans/:id/extensions/:extensionId: the lender's answer. */
export const ZAnswerExtension = z.object({ status: z.enum(['ACCEPTED', 'DECLINED']) })
/** PATCH /api/loans/:id: the lender shortens or extends the loan at once. */
export const ZChangeDueAt = z.object({ dueAt: ZDueAt })
export const ZLoanExtensionResponse = z.object({
  extension: ZLoanExtension,
  loan: ZLoan,
  message: z.optional(z.string()),
})

/** What an item card and page say about lending (ZItem.lending). */
export const ZItemLending = z.object({
  /** The ACTIVE loan, if the item is out. */
  loan: z.nullable(
    z.object({
      id: z.uuid(),
      borrower: ZPerson,
      dueAt: z.iso.datetime(),
      overdue: z.boolean(),
      recalled: z.boolean(),
    }),
  ),
  /** How many members wait to borrow it (asks WAITING or OFFERED). */
  queueLength: z.number().check(z.int(), z.nonnegative()),
})
export type TItemLending = z.infer<typeof ZItemLending>

/* ------------------------------------------------------------------ ask to borrow, waiting list */

export const BORROW_REQUEST_STATUSES = [
  'WAITING',
  'OFFERED',
  'BORROWED',
  'DECLINED',
  'WITHDRAWN',
  'CLOSED',
] as const
export const ZBorrowRequestStatus = z.enum(BORROW_REQUEST_STATUSES)

export const ZBorrowRequestIdParams = z.object({ id: z.uuid({ error: MESSAGES.borrowRequestNotFound }) })

/** A member's ask to borrow an item someone else owns; `position` counts from 1 in the item's queue. */
export const ZBorrowRequest = named(
  z.object({
    id: z.uuid(),
    itemId: z.uuid(),
    circleId: z.uuid(),
    item: z.object({ name: z.string(), thumbnailUrl: z.nullable(z.string()) }),
    asker: ZPerson,
    owner: ZPerson,
    wishedFrom: z.nullable(z.iso.datetime()),
    wishedUntil: z.iso.datetime(),
    message: z.nullable(z.string()),
    status: ZBorrowRequestStatus,
    declineReason: z.nullable(z.string()),
    /** Place in the queue while WAITING or OFFERED, else null. */
    position: z.nullable(z.number().check(z.int(), z.positive())),
    /** The LOAN handover request it became (OFFERED, BORROWED). */
    handoverId: z.nullable(z.uuid()),
    createdAt: z.iso.datetime(),
    answeredAt: z.nullable(z.iso.datetime()),
  }),
  'BorrowRequest',
)
export type TBorrowRequest = z.infer<typeof ZBorrowRequest>

/** POST /api/items/:id/borrow-requests */
export const ZCreateBorrowRequest = z.object({
  wishedFrom: z.pipe(
    z.nullish(ZDueAt),
    z.transform((v) => v ?? null),
  ),
  wishedUntil: ZDueAt,
  message: optionalMessage,
})
/** PUT /api/borrow-requests/:id: the owner accepts (a LOAN handover request, dates prefilled) or declines. */
export const ZAnswerBorrowRequest = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('ACCEPTED'),
    /** The return date of the loan offered; the wished date when absent. */
    dueAt: z.pipe(
      z.nullish(ZDueAt),
      z.transform((v) => v ?? null),
    ),
    requesterComment: optionalMessage,
    /** Issue 28: the owner's condition photos and note with the loan offered. */
    condition: z.optional(ZConditionInput),
  }),
  z.object({ status: z.literal('DECLINED'), reason: optionalMessage }),
])
export const ZBorrowRequestResponse = z.object({
  borrowRequest: ZBorrowRequest,
  message: z.optional(z.string()),
})
export const ZBorrowRequestListResponse = z.object({ borrowRequests: z.array(ZBorrowRequest) })
/** GET /api/borrow-requests: `mine` (I asked), `of-me` (asks for my items); open ones unless `all`. */
export const ZBorrowRequestListQuery = z.object({
  role: z._default(z.enum(['mine', 'of-me']), 'mine'),
  status: z._default(z.enum(['open', 'all']), 'open'),
})

/* ------------------------------------------------------------------ calendar feed */

/** GET/POST /api/users/me/calendar: the secret feed URL (null when there is none). */
export const ZCalendarFeedResponse = z.object({ url: z.nullable(z.string()) })
export const ZCalendarTokenParams = z.object({
  token: z.string().check(z.regex(/^[A-Za-z0-9_-]{20,100}\.ics$/, { error: MESSAGES.notFound })),
})
