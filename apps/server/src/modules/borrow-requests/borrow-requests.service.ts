import {
  MESSAGES,
  type TBorrowActivityData,
  type TBorrowRequest,
  type TConditionInput,
  type TUser,
  type ZAnswerBorrowRequest,
  type ZBorrowRequestListQuery,
  type ZCreateBorrowRequest,
} from '@circles/shared'
import type { z } from 'zod/mini'
import type { AppContext } from '../../context'
import type { Executor } from '../../db/client'
import { AppError } from '../../lib/errors'
import { borrowEmails } from '../../lib/mailer/borrow-templates'
import type { ActivitiesService } from '../activities/activities.service'
import type { HandoverAnsweredListener, HandoversService } from '../handovers/handovers.service'
import { imageUrls } from '../../lib/images'
import type { NoticesService } from '../users/notices.service'
import { toPublicUser } from '../users/user-view'
import * as repo from './borrow-requests.repository'
import type { BorrowRequestRow, BorrowRequestViewRow } from './borrow-requests.repository'

type TCreateBorrowRequest = z.output<typeof ZCreateBorrowRequest>
type TAnswerBorrowRequest = z.output<typeof ZAnswerBorrowRequest>
type TBorrowRequestListQuery = z.output<typeof ZBorrowRequestListQuery>

const DAY_MS = 24 * 60 * 60 * 1000

const notFound = () => new AppError('NOT_FOUND', MESSAGES.borrowRequestNotFound)
const itemNotFound = () => new AppError('NOT_FOUND', MESSAGES.notFound)

/**
 * The return date of a loan made from an ask: the wished end while it is still ahead; once it has
 * passed (the ask waited in the queue), the wished length from now (at least a day). docs/decisions/0048.
 */
export function offeredDueAt(request: BorrowRequestRow, now: Date): Date {
  if (request.wishedUntil.getTime() > now.getTime()) return request.wishedUntil
  const start = request.wishedFrom ?? request.createdAt
  const length = Math.max(request.wishedUntil.getTime() - start.getTime(), DAY_MS)
  return new Date(now.getTime() + length)
}

/**
 * The ask as a viewer sees it: its asker and the item's owner see the message and the decline reason;
 * the circle's other members see who waits, from when to when, and in which place (docs/decisions/0048).
 */
function toBorrowRequest(row: BorrowRequestViewRow, viewer: TUser): TBorrowRequest {
  const { request: r } = row
  const party = viewer.id === r.askerId || viewer.id === row.ownerId
  return {
    id: r.id,
    itemId: r.itemId,
    circleId: r.circleId,
    item: { name: row.itemName, thumbnailUrl: imageUrls(row.imageId, row.imageType).thumbnailUrl },
    asker: { id: r.askerId, name: row.askerName },
    owner: { id: row.ownerId, name: row.ownerName },
    wishedFrom: r.wishedFrom?.toISOString() ?? null,
    wishedUntil: r.wishedUntil.toISOString(),
    message: party ? r.message : null,
    status: r.status,
    declineReason: party ? r.declineReason : null,
    position: row.position === null ? null : Number(row.position),
    handoverId: r.handoverId,
    createdAt: r.createdAt.toISOString(),
    answeredAt: r.answeredAt?.toISOString() ?? null,
  }
}

/** What the module needs of handovers: a LOAN request inside its transaction, cancels, answers' hook. */
export type BorrowHandovers = Pick<
  HandoversService,
  'requestInTx' | 'announceCreated' | 'cancelInTx' | 'announceWithdrawn' | 'onAnswered'
>

/** What a loan's return tells its listeners (h-loans' `loans.onReturned`). */
export interface ReturnedLoan {
  itemId: string
  circleId: string
  lenderId: string
  loanId: string
}

export function createBorrowRequestsService(
  ctx: AppContext,
  handovers: BorrowHandovers,
  activities: Pick<ActivitiesService, 'recordBorrow' | 'publish'>,
  notices: Pick<NoticesService, 'queue'>,
) {
  const itemUrl = (itemId: string) => `${ctx.config.publicUrl}/items/${itemId}`
  /** The app's clock (`BuildAppOptions.clock`): tests move it. */
  const now = () => ctx.clock()

  /** After commit: the asker's and owner's pages refresh, the circle's item views too (queue length). */
  function announce(request: BorrowRequestRow, ownerId: string) {
    const { id: borrowRequestId, itemId, circleId, askerId, status } = request
    ctx.events.publish('borrowRequest.changed', {
      borrowRequestId,
      itemId,
      circleId,
      askerId,
      ownerId,
      status,
    })
    ctx.events.publish('item.updated', { circleId, itemId })
  }

  async function activityData(db: Executor, request: BorrowRequestRow, handoverId?: string) {
    const row = (await repo.findView(db, request.id))!
    const data: TBorrowActivityData = {
      item: { id: request.itemId, name: row.itemName },
      asker: { name: row.askerName },
      owner: { name: row.ownerName },
      circleId: request.circleId,
      borrowRequestId: request.id,
      ...(handoverId ? { handoverId } : {}),
    }
    return { row, data }
  }

  /** Members of the item's circle see its queue; so does its owner, also once isolated. Else 404. */
  async function requireItemVisible(db: Executor, itemId: string, actor: TUser) {
    const item = await repo.findItem(db, itemId)
    if (!item) throw itemNotFound()
    if (item.ownerId !== actor.id && !(await repo.isMember(db, item.circleId, actor.id))) {
      throw itemNotFound()
    }
    return item
  }

  /** An ask is seen by its asker, the item's owner and the circle's members; others get a 404. */
  async function canSee(db: Executor, request: BorrowRequestRow, ownerId: string, actor: TUser) {
    if (request.askerId === actor.id || ownerId === actor.id) return true
    return repo.isMember(db, request.circleId, actor.id)
  }

  async function view(db: Executor, id: string, viewer: TUser): Promise<TBorrowRequest> {
    const row = await repo.findView(db, id)
    if (!row) throw notFound()
    return toBorrowRequest(row, viewer)
  }

  /** POST /items/:id/borrow-requests: a member asks to borrow an item someone else owns. */
  async function create(actor: TUser, itemId: string, input: TCreateBorrowRequest): Promise<TBorrowRequest> {
    const wishedUntil = new Date(input.wishedUntil)
    const wishedFrom = input.wishedFrom ? new Date(input.wishedFrom) : null
    const { request, feed, ownerId } = await ctx.db.transaction(async (tx) => {
      const item = await repo.lockItem(tx, itemId)
      if (!item) throw itemNotFound()
      if (!(await repo.isMember(tx, item.circleId, actor.id, 'share'))) throw itemNotFound()
      if (item.ownerId === actor.id) throw new AppError('FORBIDDEN', MESSAGES.borrowOwnItem)
      if (!(await repo.isMember(tx, item.circleId, item.ownerId))) {
        throw new AppError('CONFLICT', MESSAGES.borrowItemIsolated)
      }
      if (item.ownership !== 'COMPLETE') throw new AppError('CONFLICT', MESSAGES.borrowItemNotLendable)
      const loan = await repo.activeLoan(tx, item.id)
      if (loan?.borrowerId === actor.id) throw new AppError('CONFLICT', MESSAGES.borrowAlreadyBorrowing)
      if (wishedUntil.getTime() <= now().getTime()) {
        throw new AppError('VALIDATION_ERROR', MESSAGES.borrowWishedUntilPast)
      }
      if (wishedFrom && wishedFrom.getTime() >= wishedUntil.getTime()) {
        throw new AppError('VALIDATION_ERROR', MESSAGES.borrowWishedOrder)
      }
      if (await repo.hasOpenAsk(tx, item.id, actor.id)) {
        throw new AppError('CONFLICT', MESSAGES.borrowRequestExists)
      }
      let request: BorrowRequestRow
      try {
        request = await repo.insertRequest(tx, {
          circleId: item.circleId,
          itemId: item.id,
          askerId: actor.id,
          wishedFrom,
          wishedUntil,
          message: input.message,
        })
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('CONFLICT', MESSAGES.borrowRequestExists)
        throw error
      }
      const { row, data } = await activityData(tx, request)
      const feed = await activities.recordBorrow(tx, 'BORROW_REQUESTED', [item.ownerId], data)
      await notices.queue(tx, item.ownerId, 'borrowRequests', (to, unsubscribeUrl) =>
        borrowEmails.borrowRequested(to.language, {
          askerName: row.askerName,
          ownerName: row.ownerName,
          itemName: row.itemName,
          queueLength: row.position ?? 1,
          link: itemUrl(item.id),
          unsubscribeUrl,
        }),
      )
      return { request, feed, ownerId: item.ownerId }
    })
    ctx.log.info({ borrowRequestId: request.id, itemId, userId: actor.id }, 'borrow request created')
    announce(request, ownerId)
    activities.publish(feed)
    ctx.nudgeMail()
    return view(ctx.db, request.id, actor)
  }

  /** GET /items/:id/borrow-requests: the open asks in queue order. */
  async function listForItem(actor: TUser, itemId: string): Promise<TBorrowRequest[]> {
    await requireItemVisible(ctx.db, itemId, actor)
    return (await repo.listOpenForItem(ctx.db, itemId)).map((row) => toBorrowRequest(row, actor))
  }

  /** GET /borrow-requests: my asks, or the asks of the items I own. */
  async function list(actor: TUser, query: TBorrowRequestListQuery): Promise<TBorrowRequest[]> {
    const rows = await repo.listForUser(ctx.db, actor.id, query.role, query.status === 'open')
    return rows.map((row) => toBorrowRequest(row, actor))
  }

  /**
   * Offers the item to the asker of `request`: a LOAN handover request from the owner, due at the given
   * or the wished date, inside the transaction; the ask becomes OFFERED. Returns what to announce.
   */
  async function offer(
    tx: Executor,
    request: BorrowRequestRow,
    owner: TUser,
    dueAt: Date,
    requesterComment: string | null,
    /** Issue 28: the owner's condition photos and note with the offer. */
    condition?: TConditionInput,
  ) {
    const { row, feed } = await handovers.requestInTx(tx, owner, {
      itemId: request.itemId,
      receiverId: request.askerId,
      kind: 'LOAN',
      dueAt: dueAt.toISOString(),
      requesterComment,
      secretMessage: null,
      completeOwnership: false,
      condition,
    })
    await repo.setStatus(tx, request.id, { status: 'OFFERED', handoverId: row.id, answeredAt: now() })
    return { handover: row, feed, request: { ...request, status: 'OFFERED' as const, handoverId: row.id } }
  }

  /** Why the item cannot be lent now, if so: the true reason (out on loan, a handover waiting). */
  async function unavailable(tx: Executor, itemId: string) {
    if (await repo.activeLoan(tx, itemId)) return MESSAGES.borrowItemOnLoan
    if (await repo.hasPendingHandover(tx, itemId)) return MESSAGES.borrowItemPendingHandover
    return null
  }

  /** PUT /borrow-requests/:id: the owner accepts (a LOAN handover request to the asker) or declines. */
  async function answer(actor: TUser, id: string, input: TAnswerBorrowRequest): Promise<TBorrowRequest> {
    const result = await ctx.db.transaction(async (tx) => {
      // The item first, then the ask: the order every path here locks them in (no deadlock with a
      // withdrawal or a handover's answer that offers the item to the next in line).
      const seen = await repo.findView(tx, id)
      if (!seen) throw notFound()
      const item = await repo.lockItem(tx, seen.request.itemId)
      const request = await repo.lockRequest(tx, id)
      if (!item || !request) throw notFound()
      if (item.ownerId !== actor.id) {
        if (!(await canSee(tx, request, item.ownerId, actor))) throw notFound()
        throw new AppError('FORBIDDEN', MESSAGES.borrowOnlyOwner)
      }
      if (request.status === 'OFFERED') throw new AppError('CONFLICT', MESSAGES.borrowRequestNotWaiting)
      if (request.status !== 'WAITING') throw new AppError('CONFLICT', MESSAGES.borrowRequestClosed)
      if (input.status === 'DECLINED') {
        await repo.setStatus(tx, id, { status: 'DECLINED', declineReason: input.reason, answeredAt: now() })
        const { row, data } = await activityData(tx, request)
        const feed = await activities.recordBorrow(tx, 'BORROW_DECLINED', [request.askerId], data)
        await notices.queue(tx, request.askerId, 'borrowRequests', (to, unsubscribeUrl) =>
          borrowEmails.borrowDeclined(to.language, {
            askerName: row.askerName,
            ownerName: row.ownerName,
            itemName: row.itemName,
            reason: input.reason,
            link: itemUrl(item.id),
            unsubscribeUrl,
          }),
        )
        return { request: { ...request, status: 'DECLINED' as const }, feed, handover: null }
      }
      if (!(await repo.isMember(tx, item.circleId, actor.id))) {
        throw new AppError('FORBIDDEN', MESSAGES.borrowItemIsolated)
      }
      if (item.ownership !== 'COMPLETE') throw new AppError('CONFLICT', MESSAGES.borrowItemNotLendable)
      const reason = await unavailable(tx, item.id)
      if (reason) throw new AppError('CONFLICT', reason)
      const dueAt = input.dueAt ? new Date(input.dueAt) : offeredDueAt(request, now())
      if (dueAt.getTime() <= now().getTime()) throw new AppError('VALIDATION_ERROR', MESSAGES.loanDueAtPast)
      return offer(tx, request, actor, dueAt, input.requesterComment, input.condition)
    })
    ctx.log.info({ borrowRequestId: id, status: result.request.status }, 'borrow request answered')
    if (result.handover) handovers.announceCreated(result.handover, result.feed)
    else activities.publish(result.feed)
    announce(result.request, actor.id)
    ctx.nudgeMail()
    return view(ctx.db, id, actor)
  }

  /**
   * Inside a transaction: offers the item to the first WAITING asker in order of asking, when it can be
   * lent now (its owner `lenderId` holds it completely and is a member, it is not out, no handover is
   * waiting). The owner is told (feed, email) and may cancel the LOAN request; the asker answers it.
   * Returns a function to run after the commit (or nothing when nobody was offered it).
   */
  async function offerNext(
    tx: Executor,
    at: { itemId: string; circleId: string; lenderId: string },
  ): Promise<(() => void) | undefined> {
    const item = await repo.lockItem(tx, at.itemId)
    if (!item || item.ownerId !== at.lenderId || item.ownership !== 'COMPLETE') return undefined
    if (!(await repo.isMember(tx, item.circleId, at.lenderId))) return undefined
    if (await unavailable(tx, item.id)) return undefined
    const ownerRow = await repo.findUser(tx, at.lenderId)
    if (!ownerRow) return undefined
    const closed: BorrowRequestRow[] = []
    for (;;) {
      const next = await repo.lockFirstWaiting(tx, item.id)
      if (!next) break
      // An asker who is no longer a member (left meanwhile) loses their place.
      if (!(await repo.isMember(tx, item.circleId, next.askerId, 'share'))) {
        await repo.setStatus(tx, next.id, { status: 'CLOSED', answeredAt: now() })
        closed.push({ ...next, status: 'CLOSED' })
        continue
      }
      const owner = toPublicUser(ownerRow)
      const offered = await offer(tx, next, owner, offeredDueAt(next, now()), null)
      const { row, data } = await activityData(tx, next, offered.handover.id)
      const ownerFeed = await activities.recordBorrow(tx, 'BORROW_OFFERED', [owner.id], data)
      await notices.queue(tx, owner.id, 'borrowRequests', (to, unsubscribeUrl) =>
        borrowEmails.borrowOffered(to.language, {
          askerName: row.askerName,
          ownerName: row.ownerName,
          itemName: row.itemName,
          link: itemUrl(item.id),
          unsubscribeUrl,
        }),
      )
      return () => {
        ctx.log.info({ borrowRequestId: next.id, itemId: item.id }, 'next in line offered')
        for (const request of closed) announce(request, item.ownerId)
        handovers.announceCreated(offered.handover, offered.feed)
        activities.publish(ownerFeed)
        announce(offered.request, item.ownerId)
        ctx.nudgeMail()
      }
    }
    if (closed.length === 0) return undefined
    return () => {
      for (const request of closed) announce(request, item.ownerId)
    }
  }

  /** DELETE /borrow-requests/:id: the asker withdraws; an OFFERED ask's LOAN request is cancelled. */
  async function withdraw(actor: TUser, id: string): Promise<TBorrowRequest> {
    const result = await ctx.db.transaction(async (tx) => {
      const seen = await repo.findView(tx, id)
      if (!seen) throw notFound()
      // The handover, the item, then the ask: the order a handover's answer locks them in.
      const cancelled = seen.request.handoverId ? await handovers.cancelInTx(tx, seen.request.handoverId) : []
      await repo.lockItem(tx, seen.request.itemId)
      const request = (await repo.lockRequest(tx, id))!
      if (request.askerId !== actor.id) {
        if (!(await canSee(tx, request, seen.ownerId, actor))) throw notFound()
        throw new AppError('FORBIDDEN', MESSAGES.borrowOnlyAsker)
      }
      if (request.status !== 'WAITING' && request.status !== 'OFFERED') {
        throw new AppError('CONFLICT', MESSAGES.borrowRequestClosed)
      }
      await repo.setStatus(tx, id, { status: 'WITHDRAWN', answeredAt: now() })
      const withdrawn = { ...request, status: 'WITHDRAWN' as const }
      // The item is free again if it was offered to the asker: the next in line is offered it.
      const next =
        request.status === 'OFFERED'
          ? await offerNext(tx, {
              itemId: request.itemId,
              circleId: request.circleId,
              lenderId: seen.ownerId,
            })
          : undefined
      return { withdrawn, cancelled, ownerId: seen.ownerId, next }
    })
    ctx.log.info({ borrowRequestId: id }, 'borrow request withdrawn')
    handovers.announceWithdrawn(result.cancelled)
    announce(result.withdrawn, result.ownerId)
    result.next?.()
    return view(ctx.db, id, actor)
  }

  /**
   * The `onAnswered` listener of handovers: the LOAN request of an OFFERED ask was confirmed (BORROWED),
   * rejected by the asker (WITHDRAWN) or cancelled by the owner (DECLINED); in the last two the next in
   * line is offered the item. A TRANSFER confirmed for another item's request moves the item for good
   * (or into someone's care): its open asks close.
   */
  const handoverAnswered: HandoverAnsweredListener = async (tx, event) => {
    const { handover, status } = event
    await repo.lockItem(tx, handover.itemId)
    const request = await repo.lockOfferedByHandover(tx, handover.id)
    if (!request) {
      if (status !== 'CONFIRMED') return
      if (handover.kind === 'LOAN') {
        // Lent straight from the handover form to someone who had asked: their ask is served.
        const served = await repo.markBorrowed(tx, handover.itemId, handover.receiverId, now())
        if (served.length === 0) return
        return () => {
          for (const r of served) announce(r, handover.senderId)
        }
      }
      if (handover.kind !== 'TRANSFER') return
      const closed = await repo.closeForItem(tx, handover.itemId, now())
      if (closed.length === 0) return
      return () => {
        for (const r of closed) announce(r, handover.senderId)
      }
    }
    const outcome: BorrowRequestRow['status'] =
      status === 'CONFIRMED' ? 'BORROWED' : status === 'REJECTED' ? 'WITHDRAWN' : 'DECLINED'
    await repo.setStatus(tx, request.id, { status: outcome, answeredAt: now() })
    const changed = { ...request, status: outcome }
    const next =
      outcome === 'BORROWED'
        ? undefined
        : await offerNext(tx, {
            itemId: request.itemId,
            circleId: request.circleId,
            lenderId: handover.senderId,
          })
    return () => {
      announce(changed, handover.senderId)
      next?.()
    }
  }
  handovers.onAnswered(handoverAnswered)

  /**
   * For the circles module, inside its departure transaction (after the handovers' withdrawal): the
   * open asks the member made in the circle, and those of the items they hold there, are CLOSED.
   */
  async function closeInvolving(tx: Executor, circleId: string, userId: string) {
    // The items offered to (or by) the leaver first: `offerFreed` offers them to the next in line.
    await repo.lockOfferedItemsInvolving(tx, circleId, userId)
    const closed = await repo.closeInvolving(tx, circleId, userId, now())
    const owners = new Map<string, string>()
    for (const request of closed) {
      if (!owners.has(request.itemId)) {
        owners.set(request.itemId, (await repo.findItem(tx, request.itemId))?.ownerId ?? request.askerId)
      }
    }
    return closed.map((request) => ({ request, ownerId: owners.get(request.itemId)! }))
  }

  /**
   * For the circles module, at the end of its departure transaction (after the recalls and the items'
   * release, so the ledger head is taken before any item as a confirmation takes them): each item whose
   * OFFERED ask `closeInvolving` closed is offered to the next in line, as on a return (`offerNext`; it
   * does nothing when the owner is the one who left). Its items were locked by `closeInvolving`.
   * Returns what to announce after the commit.
   */
  async function offerFreed(tx: Executor, closed: { request: BorrowRequestRow; ownerId: string }[]) {
    const freed = new Map<string, { itemId: string; circleId: string; lenderId: string }>()
    for (const { request, ownerId } of closed) {
      // An OFFERED ask is the only open one with a handover (its LOAN request, cancelled by the departure).
      if (request.handoverId && !freed.has(request.itemId)) {
        freed.set(request.itemId, { itemId: request.itemId, circleId: request.circleId, lenderId: ownerId })
      }
    }
    const after: (() => void)[] = []
    for (const at of freed.values()) {
      const next = await offerNext(tx, at)
      if (next) after.push(next)
    }
    return () => {
      for (const announceOffer of after) announceOffer()
    }
  }

  /** After the departure commits: the asker's and owner's pages, the items' queue lengths. */
  function announceClosed(closed: { request: BorrowRequestRow; ownerId: string }[]) {
    for (const { request, ownerId } of closed) announce(request, ownerId)
  }

  /**
   * The loans module's return hook (h-loans: `loans.onReturned(listener)`, called inside the return's
   * transaction once the loan is RETURNED): the next in line is offered the item.
   */
  function returnListener(tx: Executor, returned: ReturnedLoan) {
    return offerNext(tx, returned)
  }

  return {
    create,
    listForItem,
    list,
    answer,
    withdraw,
    offerNext,
    closeInvolving,
    offerFreed,
    announceClosed,
    returnListener,
  }
}

export type BorrowRequestsService = ReturnType<typeof createBorrowRequestsService>

/** PostgreSQL's unique_violation (23505), as node-postgres and PGlite report it. */
function isUniqueViolation(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } })?.cause
  return (error as { code?: string })?.code === '23505' || cause?.code === '23505'
}

/**
 * Connects the waiting list to the loans module's returns once it exists (h-loans): the lead calls
 * `registerReturnListener(loans, borrowRequests)` in app.ts. The listener's after-commit function is
 * for the loans module to run after its commit (or to ignore, at the cost of the live refresh).
 */
export function registerReturnListener(
  loans: { onReturned(listener: (tx: Executor, returned: ReturnedLoan) => Promise<unknown>): void },
  borrowRequests: Pick<BorrowRequestsService, 'returnListener'>,
) {
  loans.onReturned((tx, returned) => borrowRequests.returnListener(tx, returned))
}
