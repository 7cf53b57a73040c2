import { commitment, type BlockEvidence, type TransferReason } from '@circles/ledger'
import {
  MESSAGES,
  type MessageText,
  type TConditionInput,
  type TLoan,
  type TLoanActivityData,
  type TLoanExtension,
  type TUser,
} from '@circles/shared'
import type { AppContext } from '../../context'
import type { Executor } from '../../db/client'
import { AppError } from '../../lib/errors'
import { emails, formatDueAt, type LoanStep } from '../../lib/mailer/templates'
import type { Notice } from '../../lib/events'
import type { ActivitiesService } from '../activities/activities.service'
import type {
  HandoverRow,
  HandoverViewRow,
  HandoversService,
  LendingHooks,
} from '../handovers/handovers.service'
import { imageUrls } from '../../lib/images'
import type { LedgerLock, LedgerService } from '../ledger/ledger.service'
import type { NoticesService } from '../users/notices.service'
import * as repo from './loans.repository'
import type { LoanExtensionRow, LoanRow, LoanViewRow } from './loans.repository'

const loanNotFound = () => new AppError('NOT_FOUND', MESSAGES.loanNotFound)
type Commitments = {
  requesterComment: string | null
  receiverComment: string | null
  secretMessage: string | null
}
const noCommitments: Commitments = { requesterComment: null, receiverComment: null, secretMessage: null }

/** What a listener of a confirmed return learns (h-borrow offers the item to the next in line). */
export interface ReturnedLoan {
  itemId: string
  circleId: string
  lenderId: string
  loanId: string
}
/**
 * Called inside the transaction that ends a loan (the loan RETURNED, its RETURN block appended, the
 * RETURN handover CONFIRMED): it may write in `tx` (e.g. `handovers.requestInTx` for the next LOAN) and
 * return what to announce once the transaction committed.
 */
export type ReturnedListener = (tx: Executor, loan: ReturnedLoan) => Promise<void | (() => void)>

function toExtension(row: LoanExtensionRow, borrowerName: string): TLoanExtension {
  return {
    id: row.id,
    loanId: row.loanId,
    requestedBy: { id: row.requestedById, name: borrowerName },
    dueAt: row.dueAt.toISOString(),
    message: row.message,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    answeredAt: row.answeredAt?.toISOString() ?? null,
  }
}

function toLoan(row: LoanViewRow, now: Date): TLoan {
  const { loan } = row
  return {
    id: loan.id,
    itemId: loan.itemId,
    circleId: loan.circleId,
    item: { name: row.itemName, thumbnailUrl: imageUrls(row.imageId, row.imageType).thumbnailUrl },
    circle: { name: row.circleName },
    lender: { id: loan.lenderId, name: row.lenderName },
    borrower: { id: loan.borrowerId, name: row.borrowerName },
    status: loan.status,
    dueAt: loan.dueAt.toISOString(),
    overdue: loan.status === 'ACTIVE' && loan.dueAt.getTime() < now.getTime(),
    startedAt: loan.startedAt.toISOString(),
    returnedAt: loan.returnedAt?.toISOString() ?? null,
    recalledAt: loan.recalledAt?.toISOString() ?? null,
    recallReason: loan.recallReason,
    pendingReturn:
      row.returnHandoverId && row.returnSenderId
        ? {
            handoverId: row.returnHandoverId,
            startedBy: row.returnSenderId === loan.borrowerId ? 'BORROWER' : 'LENDER',
          }
        : null,
    pendingExtension: row.extension ? toExtension(row.extension, row.borrowerName) : null,
  }
}

/**
 * The loan lifecycle (issue 26, docs/decisions/0047): a LOAN handover's confirmation starts a loan (the
 * lender stays the owner), a RETURN handover's ends it; extensions, the lender's change of date and the
 * recall when a party leaves. Every start, return and change appends a v4 block in its transaction.
 */
export function createLoansService(
  ctx: AppContext,
  deps: {
    ledger: Pick<LedgerService, 'lockCircle'>
    activities: Pick<ActivitiesService, 'recordLoan' | 'publish'>
    notices: Pick<NoticesService, 'queue'>
    handovers: Pick<HandoversService, 'requestReturnInTx' | 'announceCreated'>
  },
) {
  const { ledger, activities, notices, handovers } = deps
  /** The app's clock (`BuildAppOptions.clock`): tests move it. */
  const now = () => ctx.clock()
  const itemUrl = (itemId: string) => `${ctx.config.publicUrl}/items/${itemId}`
  const returnedListeners: ReturnedListener[] = []

  /** h-borrow: called inside the transaction that confirms a return (e.g. to offer the item to the next). */
  function onReturned(listener: ReturnedListener) {
    returnedListeners.push(listener)
  }

  function announce(loan: LoanRow, feed: Notice[] = []) {
    const { id: loanId, itemId, circleId, lenderId, borrowerId } = loan
    ctx.events.publish('loan.changed', { loanId, itemId, circleId, lenderId, borrowerId })
    ctx.events.publish('item.updated', { circleId, itemId })
    activities.publish(feed)
    ctx.nudgeMail()
  }

  async function view(db: Executor, id: string): Promise<TLoan> {
    const row = await repo.findLoan(db, id)
    if (!row) throw loanNotFound()
    return toLoan(row, now())
  }

  /** Lender, borrower and the circle's members see a loan; anyone else gets its 404. */
  async function canSee(db: Executor, loan: LoanRow, actor: TUser) {
    if (loan.lenderId === actor.id || loan.borrowerId === actor.id) return true
    return repo.isMember(db, loan.circleId, actor.id)
  }
  async function refuse(db: Executor, loan: LoanRow, actor: TUser, message: MessageText): Promise<never> {
    if (!(await canSee(db, loan, actor))) throw loanNotFound()
    throw new AppError('FORBIDDEN', message)
  }
  async function lockVisible(tx: Executor, id: string, actor: TUser) {
    const loan = await repo.lockLoan(tx, id)
    if (!loan || !(await canSee(tx, loan, actor))) throw loanNotFound()
    return loan
  }

  /** The names a feed entry and a block need, read once. */
  async function partiesOf(db: Executor, loan: Pick<LoanRow, 'lenderId' | 'borrowerId' | 'itemId'>) {
    const [lenderName, borrowerName, itemName] = await Promise.all([
      repo.userName(db, loan.lenderId),
      repo.userName(db, loan.borrowerId),
      repo.itemName(db, loan.itemId),
    ])
    return { lenderName, borrowerName, itemName }
  }
  type Parties = Awaited<ReturnType<typeof partiesOf>>

  function feedData(
    loan: LoanRow,
    p: Parties,
    extra: Partial<TLoanActivityData> & { handoverId?: string | null },
  ): TLoanActivityData {
    return {
      item: { id: loan.itemId, name: p.itemName },
      lender: { name: p.lenderName },
      borrower: { name: p.borrowerName },
      circleId: loan.circleId,
      loanId: loan.id,
      handoverId: null,
      dueAt: loan.dueAt.toISOString(),
      ...extra,
    }
  }

  /** The email of a loan step to one party, if they want `loanChanges` notices. */
  function mail(
    tx: Executor,
    to: string,
    step: LoanStep,
    d: { otherName: string; itemName: string; itemId: string; dueAt: Date | null },
  ) {
    return notices.queue(tx, to, 'loanChanges', (user, unsubscribeUrl) =>
      emails.loanChanged(user.language, {
        step,
        recipientName: user.name,
        otherName: d.otherName,
        itemName: d.itemName,
        dueAt: d.dueAt ? formatDueAt(user.language, d.dueAt, user.timeZone) : null,
        link: itemUrl(d.itemId),
        unsubscribeUrl,
      }),
    )
  }

  /** A loan block (v4): lender → borrower for LOAN and LOAN_CHANGE, borrower → lender for RETURN. */
  function appendLoanBlock(
    log: LedgerLock,
    loan: LoanRow,
    p: Parties,
    b: {
      kind: 'LOAN' | 'RETURN' | 'LOAN_CHANGE'
      dueAt: Date | null
      handoverId: string | null
      reason?: TransferReason | null
      commitments?: Commitments
      /** Issue 28: the condition evidence, placed by who the block's `from` is. */
      evidence?: (fromId: string) => BlockEvidence | null
    },
  ) {
    const lender = { id: loan.lenderId, name: p.lenderName }
    const borrower = { id: loan.borrowerId, name: p.borrowerName }
    const back = b.kind === 'RETURN'
    return log.append({
      evidence: b.evidence?.(back ? borrower.id : lender.id) ?? null,
      kind: b.kind,
      handoverId: b.handoverId,
      item: { id: loan.itemId, name: p.itemName },
      from: back ? borrower : lender,
      to: back ? lender : borrower,
      ownership: 'COMPLETE',
      reason: b.reason ?? null,
      loan: { id: loan.id, dueAt: b.dueAt ? b.dueAt.toISOString() : null },
      commitments: b.commitments ?? noCommitments,
    })
  }

  /* ------------------------------------------------------------ handover hooks */

  async function activeLoan(tx: Executor, itemId: string) {
    const found = await repo.activeLoanOfItem(tx, itemId)
    if (!found) return undefined
    const { loan, borrowerName } = found
    return {
      id: loan.id,
      lenderId: loan.lenderId,
      borrowerId: loan.borrowerId,
      borrower: { id: loan.borrowerId, name: borrowerName },
      dueAt: loan.dueAt,
      recalled: loan.recalledAt !== null,
    }
  }

  const commitmentsOf = (h: HandoverRow, receiverComment: string | null) => ({
    requesterComment: commitment(h.requesterComment, h.requesterCommentSalt),
    receiverComment: commitment(receiverComment, h.receiverCommentSalt),
    secretMessage: commitment(h.secretMessage, h.secretMessageSalt),
  })

  /** The receiver confirmed a LOAN: the loan starts and its block is appended; the owner stays. */
  async function confirmLoan(
    tx: Executor,
    h: HandoverRow,
    names: HandoverViewRow,
    receiverComment: string | null,
    evidence: (fromId: string) => BlockEvidence | null,
  ) {
    const log = await ledger.lockCircle(tx, h.circleId)
    const item = await repo.lockItem(tx, h.itemId)
    const bothMembers = await repo.areMembers(tx, h.circleId, [h.senderId, h.receiverId])
    if (!item || item.ownerId !== h.senderId || !bothMembers) {
      throw new AppError('CONFLICT', MESSAGES.handoverPartyLeft)
    }
    if (item.ownership !== 'COMPLETE') throw new AppError('FORBIDDEN', MESSAGES.loanNeedsCompleteOwnership)
    if (await repo.activeLoanOfItem(tx, item.id)) throw new AppError('CONFLICT', MESSAGES.itemOnLoan)
    const dueAt = h.dueAt!
    if (dueAt.getTime() <= now().getTime()) throw new AppError('CONFLICT', MESSAGES.loanDueAtPast)
    const loan = await repo.insertLoan(tx, {
      circleId: h.circleId,
      itemId: item.id,
      lenderId: h.senderId,
      borrowerId: h.receiverId,
      dueAt,
      handoverId: h.id,
      startedAt: now(),
    })
    const p = { lenderName: names.senderName, borrowerName: names.receiverName, itemName: item.name }
    const { receipt } = await appendLoanBlock(log, loan, p, {
      kind: 'LOAN',
      dueAt,
      handoverId: h.id,
      commitments: commitmentsOf(h, receiverComment),
      evidence,
    })
    const feed = await activities.recordLoan(
      tx,
      'LOAN_STARTED',
      [loan.lenderId, loan.borrowerId],
      feedData(loan, p, { handoverId: h.id }),
    )
    await mail(tx, loan.lenderId, 'started', {
      otherName: p.borrowerName,
      itemName: p.itemName,
      itemId: loan.itemId,
      dueAt,
    })
    ctx.log.info({ loanId: loan.id, itemId: loan.itemId }, 'loan started')
    return { receipt, feed, loanId: loan.id, after: () => announce(loan) }
  }

  /**
   * A loan ends: RETURNED, its RETURN block (the handover's, or none when the lender records the return
   * of a recalled loan alone), the feed, the notices, and the listeners (h-borrow's next in line).
   */
  async function endLoan(
    tx: Executor,
    log: LedgerLock,
    loan: LoanRow,
    h: {
      handover: HandoverRow
      receiverComment: string | null
      evidence: (fromId: string) => BlockEvidence | null
    } | null,
  ) {
    const at = now()
    await repo.updateLoan(tx, loan.id, {
      status: 'RETURNED',
      returnedAt: at,
      returnHandoverId: h?.handover.id ?? null,
    })
    await repo.cancelPendingExtensions(tx, loan.id, at)
    const p = await partiesOf(tx, loan)
    const { receipt } = await appendLoanBlock(log, loan, p, {
      kind: 'RETURN',
      dueAt: null,
      handoverId: h?.handover.id ?? null,
      commitments: h ? commitmentsOf(h.handover, h.receiverComment) : noCommitments,
      evidence: h?.evidence,
    })
    const ended = { ...loan, status: 'RETURNED' as const, returnedAt: at }
    const feed = await activities.recordLoan(
      tx,
      'LOAN_RETURNED',
      [loan.lenderId, loan.borrowerId],
      feedData(ended, p, { handoverId: h?.handover.id ?? null, dueAt: null }),
    )
    // The one who started it hears that it is done (the one who confirmed knows).
    const starter = h ? h.handover.senderId : null
    if (starter) {
      const other = starter === loan.lenderId ? p.borrowerName : p.lenderName
      await mail(tx, starter, 'returned', {
        otherName: other,
        itemName: p.itemName,
        itemId: loan.itemId,
        dueAt: null,
      })
    }
    const returned = {
      itemId: loan.itemId,
      circleId: loan.circleId,
      lenderId: loan.lenderId,
      loanId: loan.id,
    }
    const afterCommit: (() => void)[] = []
    for (const listener of returnedListeners) {
      const after = await listener(tx, returned)
      if (after) afterCommit.push(after)
    }
    ctx.log.info({ loanId: loan.id, itemId: loan.itemId }, 'loan returned')
    return { receipt, feed, ended, afterCommit }
  }

  /** The receiver confirmed a RETURN (the lender, or the borrower for a return the lender recorded). */
  async function confirmReturn(
    tx: Executor,
    h: HandoverRow,
    receiverComment: string | null,
    evidence: (fromId: string) => BlockEvidence | null,
  ) {
    const log = await ledger.lockCircle(tx, h.circleId)
    const loan = h.loanId ? await repo.lockLoan(tx, h.loanId) : undefined
    if (!loan || loan.status !== 'ACTIVE') throw new AppError('CONFLICT', MESSAGES.loanNotActive)
    const { receipt, feed, ended, afterCommit } = await endLoan(tx, log, loan, {
      handover: h,
      receiverComment,
      evidence,
    })
    const after = () => {
      announce(ended)
      for (const announceListener of afterCommit) announceListener()
    }
    return { receipt, feed, loanId: loan.id, after }
  }

  const hooks: LendingHooks = {
    activeLoan,
    confirm: (tx, handover, names, receiverComment, evidence) =>
      handover.kind === 'LOAN'
        ? confirmLoan(tx, handover, names, receiverComment, evidence)
        : confirmReturn(tx, handover, receiverComment, evidence),
  }

  /* ------------------------------------------------------------ reads */

  async function list(actor: TUser, query: { role: 'borrowed' | 'lent'; status: 'active' | 'all' }) {
    const rows = await repo.listFor(ctx.db, actor.id, query.role, query.status === 'all')
    const at = now()
    return rows.map((row) => toLoan(row, at))
  }

  async function get(actor: TUser, id: string): Promise<TLoan> {
    const row = await repo.findLoan(ctx.db, id)
    if (!row || !(await canSee(ctx.db, row.loan, actor))) throw loanNotFound()
    return toLoan(row, now())
  }

  /* ------------------------------------------------------------ return */

  /**
   * POST /loans/:id/return. The borrower starts a return (the lender confirms receipt); the lender
   * records one made in person (the borrower confirms). A recalled loan's return is the lender's alone:
   * it ends at once with its RETURN block (docs/decisions/0047).
   */
  async function startReturn(
    actor: TUser,
    id: string,
    input: { comment: string | null; condition?: TConditionInput },
  ) {
    const outcome = await ctx.db.transaction(async (tx) => {
      const loan = await lockVisible(tx, id, actor)
      const isLender = loan.lenderId === actor.id
      if (!isLender && loan.borrowerId !== actor.id) await refuse(tx, loan, actor, MESSAGES.loanOnlyParties)
      if (loan.status !== 'ACTIVE') throw new AppError('CONFLICT', MESSAGES.loanNotActive)
      if (loan.recalledAt) {
        if (!isLender) throw new AppError('FORBIDDEN', MESSAGES.loanRecalledLenderRecords)
        // Nobody confirms such a return: its condition has no handover to go with (issue 28).
        if (input.condition?.photoIds.length || input.condition?.note)
          throw new AppError('VALIDATION_ERROR', MESSAGES.conditionNotForRecordedReturn)
        const log = await ledger.lockCircle(tx, loan.circleId)
        const { feed, ended, afterCommit } = await endLoan(tx, log, loan, null)
        return { kind: 'ended' as const, loan: ended, feed, afterCommit }
      }
      const receiverId = isLender ? loan.borrowerId : loan.lenderId
      const pending = await repo.findLoan(tx, loan.id)
      if (pending?.returnHandoverId) throw new AppError('CONFLICT', MESSAGES.loanReturnPending)
      const row = await handovers.requestReturnInTx(
        tx,
        {
          itemId: loan.itemId,
          circleId: loan.circleId,
          loanId: loan.id,
          receiverId,
          requesterComment: input.comment,
        },
        { actor, condition: input.condition },
      )
      const p = await partiesOf(tx, loan)
      const feed = await activities.recordLoan(
        tx,
        'LOAN_RETURN_REQUESTED',
        [receiverId],
        feedData(loan, p, { handoverId: row.id, startedBy: isLender ? 'LENDER' : 'BORROWER' }),
      )
      await mail(tx, receiverId, 'returnStarted', {
        otherName: isLender ? p.lenderName : p.borrowerName,
        itemName: p.itemName,
        itemId: loan.itemId,
        dueAt: null,
      })
      return { kind: 'started' as const, loan, feed, row }
    })
    if (outcome.kind === 'started') {
      handovers.announceCreated(outcome.row, outcome.feed)
      announce(outcome.loan)
    } else {
      ctx.log.info({ loanId: id }, 'recalled loan returned')
      announce(outcome.loan, outcome.feed)
      for (const announceListener of outcome.afterCommit) announceListener()
    }
    const message = outcome.kind === 'started' ? MESSAGES.loanReturnStarted : MESSAGES.loanReturnRecorded
    return { loan: await view(ctx.db, id), message }
  }

  /* ------------------------------------------------------------ dates */

  function requireFuture(dueAt: Date) {
    if (dueAt.getTime() <= now().getTime()) throw new AppError('VALIDATION_ERROR', MESSAGES.loanDueAtPast)
  }

  /** LOAN_CHANGE: the new date on the loan and its block, in the caller's transaction. */
  async function changeDate(tx: Executor, loan: LoanRow, dueAt: Date) {
    const log = await ledger.lockCircle(tx, loan.circleId)
    await repo.updateLoan(tx, loan.id, { dueAt })
    const p = await partiesOf(tx, loan)
    await appendLoanBlock(log, loan, p, { kind: 'LOAN_CHANGE', dueAt, handoverId: null })
    return { changed: { ...loan, dueAt }, p }
  }

  /** POST /loans/:id/extensions: the borrower asks for a later date (one wish at a time). */
  async function requestExtension(
    actor: TUser,
    id: string,
    input: { dueAt: string; message: string | null },
  ) {
    const dueAt = new Date(input.dueAt)
    const { loan, extension, feed } = await ctx.db.transaction(async (tx) => {
      const loan = await lockVisible(tx, id, actor)
      if (loan.borrowerId !== actor.id) await refuse(tx, loan, actor, MESSAGES.loanOnlyBorrower)
      if (loan.status !== 'ACTIVE') throw new AppError('CONFLICT', MESSAGES.loanNotActive)
      if (loan.recalledAt) throw new AppError('FORBIDDEN', MESSAGES.loanRecalledLenderRecords)
      requireFuture(dueAt)
      if (dueAt.getTime() <= loan.dueAt.getTime()) {
        throw new AppError('VALIDATION_ERROR', MESSAGES.loanExtensionNotLater)
      }
      if ((await repo.findLoan(tx, loan.id))?.extension) {
        throw new AppError('CONFLICT', MESSAGES.loanExtensionPending)
      }
      const extension = await repo.insertExtension(tx, {
        loanId: loan.id,
        requestedById: actor.id,
        dueAt,
        message: input.message,
        createdAt: now(),
      })
      const p = await partiesOf(tx, loan)
      const feed = await activities.recordLoan(
        tx,
        'LOAN_EXTENSION_REQUESTED',
        [loan.lenderId],
        feedData(loan, p, { dueAt: dueAt.toISOString(), previousDueAt: loan.dueAt.toISOString() }),
      )
      await mail(tx, loan.lenderId, 'extensionRequested', {
        otherName: p.borrowerName,
        itemName: p.itemName,
        itemId: loan.itemId,
        dueAt,
      })
      return { loan, extension: toExtension(extension, p.borrowerName), feed }
    })
    announce(loan, feed)
    return { extension, loan: await view(ctx.db, id), message: MESSAGES.loanExtensionRequested }
  }

  /** The lender and the extension, locked and checked: the wish belongs to the loan and is open. */
  async function lockOpenExtension(
    tx: Executor,
    actor: TUser,
    id: string,
    extensionId: string,
    who: 'lender' | 'borrower',
  ) {
    const loan = await lockVisible(tx, id, actor)
    const allowed = who === 'lender' ? loan.lenderId === actor.id : loan.borrowerId === actor.id
    if (!allowed)
      await refuse(tx, loan, actor, who === 'lender' ? MESSAGES.loanOnlyLender : MESSAGES.loanOnlyBorrower)
    const extension = await repo.lockExtension(tx, extensionId)
    if (!extension || extension.loanId !== loan.id) throw loanNotFound()
    if (extension.status !== 'PENDING') throw new AppError('CONFLICT', MESSAGES.loanExtensionNotPending)
    if (loan.status !== 'ACTIVE') throw new AppError('CONFLICT', MESSAGES.loanNotActive)
    return { loan, extension }
  }

  /** PUT /loans/:id/extensions/:extensionId: the lender accepts (LOAN_CHANGE block) or declines. */
  async function answerExtension(
    actor: TUser,
    id: string,
    extensionId: string,
    input: { status: 'ACCEPTED' | 'DECLINED' },
  ) {
    const { loan, extension, feed } = await ctx.db.transaction(async (tx) => {
      const { loan, extension } = await lockOpenExtension(tx, actor, id, extensionId, 'lender')
      const accepted = input.status === 'ACCEPTED'
      if (accepted) requireFuture(extension.dueAt)
      const answered = await repo.answerExtension(tx, extension.id, input.status, now())
      const { changed, p } = accepted
        ? await changeDate(tx, loan, extension.dueAt)
        : { changed: loan, p: await partiesOf(tx, loan) }
      const feed = await activities.recordLoan(
        tx,
        'LOAN_EXTENSION_ANSWERED',
        [loan.borrowerId],
        feedData(changed, p, { accepted, previousDueAt: loan.dueAt.toISOString() }),
      )
      await mail(tx, loan.borrowerId, accepted ? 'extensionAccepted' : 'extensionDeclined', {
        otherName: p.lenderName,
        itemName: p.itemName,
        itemId: loan.itemId,
        dueAt: changed.dueAt,
      })
      return { loan: changed, extension: toExtension(answered, p.borrowerName), feed }
    })
    announce(loan, feed)
    const message =
      input.status === 'ACCEPTED' ? MESSAGES.loanExtensionAccepted : MESSAGES.loanExtensionDeclined
    return { extension, loan: await view(ctx.db, id), message }
  }

  /** DELETE /loans/:id/extensions/:extensionId: the borrower withdraws the wish (CANCELLED). */
  async function withdrawExtension(actor: TUser, id: string, extensionId: string) {
    const loan = await ctx.db.transaction(async (tx) => {
      const { loan, extension } = await lockOpenExtension(tx, actor, id, extensionId, 'borrower')
      await repo.answerExtension(tx, extension.id, 'CANCELLED', now())
      return loan
    })
    announce(loan)
    return { message: MESSAGES.loanExtensionWithdrawn }
  }

  /** PATCH /loans/:id: the lender moves the date, earlier or later (a future minute), at once. */
  async function changeDueAt(actor: TUser, id: string, input: { dueAt: string }) {
    const dueAt = new Date(input.dueAt)
    const { loan, feed } = await ctx.db.transaction(async (tx) => {
      const loan = await lockVisible(tx, id, actor)
      if (loan.lenderId !== actor.id) await refuse(tx, loan, actor, MESSAGES.loanOnlyLender)
      if (loan.status !== 'ACTIVE') throw new AppError('CONFLICT', MESSAGES.loanNotActive)
      requireFuture(dueAt)
      if (dueAt.getTime() === loan.dueAt.getTime())
        throw new AppError('CONFLICT', MESSAGES.loanDueAtUnchanged)
      const { changed, p } = await changeDate(tx, loan, dueAt)
      const feed = await activities.recordLoan(
        tx,
        'LOAN_DUE_CHANGED',
        [loan.borrowerId],
        feedData(changed, p, { previousDueAt: loan.dueAt.toISOString() }),
      )
      await mail(tx, loan.borrowerId, 'dueChanged', {
        otherName: p.lenderName,
        itemName: p.itemName,
        itemId: loan.itemId,
        dueAt,
      })
      return { loan: changed, feed }
    })
    announce(loan, feed)
    return { loan: await view(ctx.db, id), message: MESSAGES.loanDueAtChanged }
  }

  /* ------------------------------------------------------------ departures */

  /**
   * For the circles module, inside a departure's transaction (after the pending handovers involving the
   * member were withdrawn): every ACTIVE loan of the circle the member borrowed or lent is recalled
   * (docs/decisions/0047): `recalled_at`, `recall_reason`, a LOAN_CHANGE block with the reason and the
   * date as it stands, a pending extension cancelled, a feed entry for the lender, the borrower and the
   * admin. The item is to go back to its lender, who records the return alone. Returns the announcement.
   */
  async function recallInvolving(
    tx: Executor,
    circleId: string,
    userId: string,
    adminId: string,
    reason: TransferReason,
  ): Promise<() => void> {
    const open = await repo.lockOpenLoansInvolving(tx, circleId, userId)
    if (open.length === 0) return () => {}
    const log = await ledger.lockCircle(tx, circleId)
    const at = now()
    const recalled: LoanRow[] = []
    const feed: Notice[] = []
    for (const loan of open) {
      await repo.updateLoan(tx, loan.id, { recalledAt: at, recallReason: reason })
      await repo.cancelPendingExtensions(tx, loan.id, at)
      const p = await partiesOf(tx, loan)
      await appendLoanBlock(log, loan, p, {
        kind: 'LOAN_CHANGE',
        dueAt: loan.dueAt,
        handoverId: null,
        reason,
      })
      const departed = loan.borrowerId === userId ? 'BORROWER' : 'LENDER'
      feed.push(
        ...(await activities.recordLoan(
          tx,
          'LOAN_RECALLED',
          [loan.lenderId, loan.borrowerId, adminId],
          feedData(loan, p, { reason, departed }),
        )),
      )
      // The one who stays hears of it by email; the lender records the return when the item is back.
      if (departed === 'BORROWER') {
        await mail(tx, loan.lenderId, 'recalled', {
          otherName: p.borrowerName,
          itemName: p.itemName,
          itemId: loan.itemId,
          dueAt: loan.dueAt,
        })
      }
      recalled.push({ ...loan, recalledAt: at, recallReason: reason })
    }
    ctx.log.info({ circleId, userId, loans: recalled.length }, 'loans recalled')
    return () => {
      for (const loan of recalled) announce(loan)
      activities.publish(feed)
    }
  }

  /** Account deletion (docs/decisions/0035): a deleted person's extension messages go. */
  function eraseTextsOf(tx: Executor, userId: string) {
    return repo.eraseExtensionMessages(tx, userId)
  }

  return {
    hooks,
    onReturned,
    list,
    get,
    startReturn,
    requestExtension,
    answerExtension,
    withdrawExtension,
    changeDueAt,
    recallInvolving,
    eraseTextsOf,
  }
}

export type LoansService = ReturnType<typeof createLoansService>
/** What the circles module needs of the loans module. */
export type CircleLoans = Pick<LoansService, 'recallInvolving'>
