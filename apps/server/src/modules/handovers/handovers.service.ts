import { commitment, type BlockEvidence } from '@circles/ledger'
import {
  MESSAGES,
  type MessageText,
  type TConditionInput,
  type TCreateHandoverRequest,
  type THandover,
  type THandoverAnswer,
  type TLedgerReceipt,
  type TUser,
} from '@circles/shared'
import type { AppContext } from '../../context'
import type { Executor } from '../../db/client'
import { AppError } from '../../lib/errors'
import { emails, formatDueAt } from '../../lib/mailer/templates'
import type { DomainEvents } from '../../lib/events'
import { randomToken } from '../../lib/tokens'
import { imageUrls } from '../../lib/images'
import type { Notice } from '../../lib/events'
import type { ActivitiesService } from '../activities/activities.service'
import {
  blockEvidence,
  conditionView,
  type ConditionService,
  type HandoverPhotos,
} from '../condition/condition.service'
import type { ItemsService } from '../items/items.service'
import type { LedgerService } from '../ledger/ledger.service'
import type { NoticesService } from '../users/notices.service'
import * as repo from './handovers.repository'
import type { HandoverRow, HandoverViewRow } from './handovers.repository'

/** The rows the loans module's hooks receive (issue 26). */
export type { HandoverRow, HandoverViewRow }

type THandoverEvent = DomainEvents['handover.changed']

/** The ACTIVE loan of an item, as the handovers module needs to know it (issue 26). */
export interface ActiveLoanInfo {
  id: string
  lenderId: string
  borrowerId: string
  /** For the refusal's details: "On loan to Ben until …". */
  borrower: { id: string; name: string }
  dueAt: Date
  recalled: boolean
}

/**
 * What the loans module lends the handovers module (issue 26, docs/decisions/0047), registered at start
 * with `useLending`: the item's ACTIVE loan (no handover on for good or lending again while it is out),
 * and the confirmation of a LOAN or RETURN handover inside the answer's transaction (the handover locked
 * and answered): the loan row, its block, its feed entries and notices. `after` runs after the commit.
 */
export interface LendingHooks {
  activeLoan(tx: Executor, itemId: string): Promise<ActiveLoanInfo | undefined>
  confirm(
    tx: Executor,
    handover: HandoverRow,
    names: HandoverViewRow,
    receiverComment: string | null,
    /** Issue 28: the condition evidence of the block, placed by who its `from` is. */
    evidence: (fromId: string) => BlockEvidence | null,
  ): Promise<{ receipt: TLedgerReceipt; feed: Notice[]; after: () => void; loanId: string }>
}

const handoverNotFound = () => new AppError('NOT_FOUND', MESSAGES.handoverNotFound)
/** Why a request that is no longer PENDING cannot be answered or cancelled: its true state. */
const notPending = (h: HandoverRow) =>
  new AppError(
    'CONFLICT',
    h.status === 'CANCELLED' ? MESSAGES.handoverAlreadyCancelled : MESSAGES.handoverAlreadyAnswered,
  )
/** A fresh salt for a commitment: 16 random bytes, hex. */
const salt = () => randomToken(16)

/**
 * The one handover shape that leaves the server: the secret message for its receiver only; the condition
 * photos and notes of both sides (issue 28).
 */
function toHandover(row: HandoverViewRow, viewer: TUser, photos?: HandoverPhotos): THandover {
  const { handover: h } = row
  return {
    id: h.id,
    itemId: h.itemId,
    circleId: h.circleId,
    senderId: h.senderId,
    receiverId: h.receiverId,
    status: h.status,
    requesterComment: h.requesterComment,
    secretMessage: viewer.id === h.receiverId ? h.secretMessage : null,
    hasSecretMessage: h.secretMessage !== null,
    receiverComment: h.receiverComment,
    completeOwnership: h.completeOwnership,
    kind: h.kind,
    dueAt: h.dueAt?.toISOString() ?? null,
    loanId: h.loanId,
    createdAt: h.createdAt.toISOString(),
    answeredAt: h.answeredAt?.toISOString() ?? null,
    sender: { name: row.senderName },
    receiver: { name: row.receiverName },
    item: { name: row.itemName, thumbnailUrl: imageUrls(row.imageId, row.imageType).thumbnailUrl },
    block:
      row.blockId && row.blockHash && row.blockHeight !== null
        ? { id: row.blockId, hash: row.blockHash, height: row.blockHeight }
        : null,
    condition: conditionView(h, photos),
  }
}

/** What an activity says about a handover: names as they are now, never a comment or the secret. */
function activityData(row: HandoverViewRow) {
  const { handover: h } = row
  return {
    item: { id: h.itemId, name: row.itemName },
    sender: { name: row.senderName },
    receiver: { name: row.receiverName },
    circleId: h.circleId,
    handoverId: h.id,
    // Issue 26: a loan's request says so, with its return date.
    ...(h.kind === 'LOAN' ? { kind: h.kind, dueAt: h.dueAt?.toISOString() ?? null } : {}),
  }
}

/**
 * A handover request was answered (CONFIRMED, REJECTED) or its sender cancelled it (CANCELLED). Told
 * inside that transaction, after the change (and, for a confirmation, after the item moved and the block
 * was appended), so a module above this one (borrow requests) keeps its rows in step without this module
 * importing it. A listener may return a function to run after the commit (its announcements).
 */
export type HandoverAnsweredListener = (
  tx: Executor,
  event: { handover: HandoverRow; status: 'CONFIRMED' | 'REJECTED' | 'CANCELLED' },
) => Promise<(() => void) | void>

/** The sender's note and the salt of its commitment (none without a note). */
function senderNote(input: TConditionInput | undefined) {
  const note = input?.note ?? null
  return { senderNote: note, senderNoteSalt: note ? salt() : null }
}
function receiverNote(input: THandoverAnswer) {
  const note = input.condition?.note ?? null
  return {
    receiverNote: note,
    receiverNoteSalt: note ? salt() : null,
    receiverAsDescribed: input.condition?.asDescribed ?? false,
  }
}

export function createHandoversService(
  ctx: AppContext,
  ledger: LedgerService,
  activities: ActivitiesService,
  notices: Pick<NoticesService, 'queue'>,
  items: Pick<ItemsService, 'lockForHandover' | 'moveTo'>,
  condition: ConditionService,
) {
  const itemUrl = (itemId: string) => `${ctx.config.publicUrl}/items/${itemId}`
  const answeredListeners: HandoverAnsweredListener[] = []

  /** Registers a listener for answers and cancels (see HandoverAnsweredListener). */
  function onAnswered(listener: HandoverAnsweredListener) {
    answeredListeners.push(listener)
  }

  async function tellAnswered(
    tx: Executor,
    handover: HandoverRow,
    status: 'CONFIRMED' | 'REJECTED' | 'CANCELLED',
  ) {
    const later: (() => void)[] = []
    for (const listener of answeredListeners) {
      const next = await listener(tx, { handover, status })
      if (next) later.push(next)
    }
    return () => {
      for (const run of later) run()
    }
  }

  let lending: LendingHooks | undefined

  /** The loans module's part of LOAN and RETURN handovers (issue 26), registered once at start. */
  function useLending(hooks: LendingHooks) {
    lending = hooks
  }

  /** The email notice of a handover step, if its recipient wants it (inside the transaction). */
  function notify(tx: Executor, row: HandoverViewRow, step: 'requested' | 'CONFIRMED' | 'REJECTED') {
    const { handover: h } = row
    const names = { senderName: row.senderName, receiverName: row.receiverName, itemName: row.itemName }
    if (step === 'requested') {
      return notices.queue(tx, h.receiverId, 'handoverRequests', (to, unsubscribeUrl) =>
        emails.handoverRequested(to.language, {
          ...names,
          // A LOAN request says until when (issue 26), in the receiver's language and time zone.
          ...(h.kind === 'LOAN' && h.dueAt ? { dueAt: formatDueAt(to.language, h.dueAt, to.timeZone) } : {}),
          link: `${itemUrl(h.itemId)}/handover`,
          unsubscribeUrl,
        }),
      )
    }
    // A loan's confirmation and a return have their own notices (the loans module's, `loanChanges`).
    if (h.kind !== 'TRANSFER' && step === 'CONFIRMED') return Promise.resolve(false)
    if (h.kind === 'RETURN') return Promise.resolve(false)
    return notices.queue(tx, h.senderId, 'handoverAnswers', (to, unsubscribeUrl) =>
      emails.handoverAnswered(to.language, {
        ...names,
        accepted: step === 'CONFIRMED',
        link: itemUrl(h.itemId),
        unsubscribeUrl,
      }),
    )
  }

  /** After commit: the parties' pages refresh, the circle's item views too, the feed entries go out. */
  function announce(h: HandoverRow, status: THandoverEvent['status'], notices: Notice[] = []) {
    const { id: handoverId, itemId, circleId, senderId, receiverId } = h
    ctx.events.publish('handover.changed', { handoverId, itemId, circleId, senderId, receiverId, status })
    ctx.events.publish('item.updated', { circleId, itemId })
    activities.publish(notices)
  }

  /** Handover rows as their views, with every photo read in one query. */
  async function views(db: Executor, rows: HandoverViewRow[], viewer: TUser): Promise<THandover[]> {
    const photos = await condition.photosFor(
      db,
      rows.map((row) => row.handover.id),
    )
    return rows.map((row) => toHandover(row, viewer, photos.get(row.handover.id)))
  }

  async function view(db: Executor, id: string, viewer: TUser): Promise<THandover> {
    const row = await repo.findHandover(db, id)
    if (!row) throw handoverNotFound()
    return (await views(db, [row], viewer))[0]!
  }

  /** The parties see a handover; so do the other members of its circle (comments, never the secret). */
  async function canSee(db: Executor, handover: HandoverRow, actor: TUser): Promise<boolean> {
    if (handover.senderId === actor.id || handover.receiverId === actor.id) return true
    return repo.isMember(db, handover.circleId, actor.id)
  }

  /** Someone who may not see the handover learns nothing: the same 404 as for none at all. */
  async function refuse(db: Executor, handover: HandoverRow, actor: TUser, message: MessageText) {
    if (!(await canSee(db, handover, actor))) throw handoverNotFound()
    throw new AppError('FORBIDDEN', message)
  }

  async function listMine(actor: TUser): Promise<THandover[]> {
    return views(ctx.db, await repo.listForUser(ctx.db, actor.id), actor)
  }

  /** An item's handovers, for the members of its circle and its holder. */
  async function listForItem(actor: TUser, itemId: string): Promise<THandover[]> {
    const item = await repo.findItem(ctx.db, itemId)
    if (!item) throw new AppError('NOT_FOUND', MESSAGES.notFound)
    if (item.ownerId !== actor.id && !(await repo.isMember(ctx.db, item.circleId, actor.id))) {
      throw new AppError('NOT_FOUND', MESSAGES.notFound)
    }
    return views(ctx.db, await repo.listForItem(ctx.db, itemId), actor)
  }

  /**
   * A handover request inside the caller's transaction (the create route's, or the borrow module's when
   * an owner accepts an ask to borrow): checks, the row, the feed entry and the email notice. The caller
   * publishes `feed` and calls `announceCreated` after its commit.
   */
  async function requestInTx(tx: Executor, actor: TUser, input: TCreateHandoverRequest) {
    const item = await items.lockForHandover(tx, input.itemId)
    if (!item) throw new AppError('NOT_FOUND', MESSAGES.notFound)
    const actorIsMember = await repo.isMember(tx, item.circleId, actor.id)
    // Out on loan (issue 26): the borrower does not hand it on, the owner waits until it is back.
    const loan = await lending?.activeLoan(tx, item.id)
    if (loan && actorIsMember && loan.borrowerId === actor.id) {
      throw new AppError('FORBIDDEN', MESSAGES.loanBorrowerCannotHandOn)
    }
    // Someone else holds it: that is the reason, also for a former sender (docs/decisions/0029).
    if (item.ownerId !== actor.id) {
      if (!actorIsMember) throw new AppError('NOT_FOUND', MESSAGES.notFound)
      throw new AppError('FORBIDDEN', MESSAGES.handoverOnlyOwner)
    }
    if (!actorIsMember) throw new AppError('FORBIDDEN', MESSAGES.handoverItemIsolated)
    if (input.receiverId === actor.id) throw new AppError('VALIDATION_ERROR', MESSAGES.handoverToSelf)
    if (!(await repo.isMember(tx, item.circleId, input.receiverId, 'share'))) {
      throw new AppError('VALIDATION_ERROR', MESSAGES.handoverReceiverNotMember)
    }
    if (loan) {
      throw new AppError('CONFLICT', MESSAGES.itemOnLoan, {
        loan: { id: loan.id, borrower: loan.borrower, dueAt: loan.dueAt.toISOString() },
      })
    }
    const lend = input.kind === 'LOAN'
    if (lend) {
      // Only the owner with complete ownership lends, until a date in the future (docs/decisions/0047).
      if (item.ownership !== 'COMPLETE') throw new AppError('FORBIDDEN', MESSAGES.loanNeedsCompleteOwnership)
      if (!input.dueAt) throw new AppError('VALIDATION_ERROR', MESSAGES.loanDueAtRequired)
      if (new Date(input.dueAt).getTime() <= ctx.clock().getTime()) {
        throw new AppError('VALIDATION_ERROR', MESSAGES.loanDueAtPast)
      }
    } else if (input.completeOwnership && item.ownership !== 'COMPLETE') {
      throw new AppError('FORBIDDEN', MESSAGES.handoverCompleteNeedsComplete)
    }
    if (await repo.hasPending(tx, item.id)) throw new AppError('CONFLICT', MESSAGES.handoverPendingExists)
    const row = await repo.insertHandover(tx, {
      itemId: item.id,
      circleId: item.circleId,
      senderId: actor.id,
      receiverId: input.receiverId,
      // A loan moves no ownership: the lender stays the owner.
      completeOwnership: lend ? false : input.completeOwnership,
      kind: lend ? 'LOAN' : 'TRANSFER',
      dueAt: lend ? new Date(input.dueAt!) : null,
      requesterComment: input.requesterComment,
      secretMessage: input.secretMessage,
      requesterCommentSalt: salt(),
      secretMessageSalt: salt(),
      receiverCommentSalt: salt(),
      ...senderNote(input.condition),
    })
    await condition.attachInTx(tx, actor, row.id, 'sender', input.condition?.photoIds ?? [])
    const created = (await repo.findHandover(tx, row.id))!
    const feed = await activities.recordHandover(
      tx,
      'PENDING_HANDOVER',
      [row.receiverId],
      activityData(created),
    )
    await notify(tx, created, 'requested')
    return { row, feed }
  }

  /**
   * A RETURN handover of a loan (issue 26), inside the loans module's transaction: the loans module has
   * checked the loan; here the item's one pending handover is kept. `senderId` started it, `receiverId`
   * confirms it; the item goes back to the lender either way. Announce with `announceCreated`.
   */
  async function requestReturnInTx(
    tx: Executor,
    input: {
      itemId: string
      circleId: string
      loanId: string
      receiverId: string
      requesterComment: string | null
    },
    /** Issue 28: the condition the item comes back in, from the one who starts the return. */
    sender: { actor: TUser; condition?: TConditionInput },
  ): Promise<HandoverRow> {
    await items.lockForHandover(tx, input.itemId)
    if (await repo.hasPending(tx, input.itemId))
      throw new AppError('CONFLICT', MESSAGES.handoverPendingExists)
    const row = await repo.insertHandover(tx, {
      ...input,
      senderId: sender.actor.id,
      kind: 'RETURN',
      completeOwnership: false,
      requesterCommentSalt: salt(),
      secretMessageSalt: salt(),
      receiverCommentSalt: salt(),
      ...senderNote(sender.condition),
    })
    await condition.attachInTx(tx, sender.actor, row.id, 'sender', sender.condition?.photoIds ?? [])
    return row
  }

  /** After the commit of `requestInTx`: the parties' pages and feeds, the mail worker. */
  function announceCreated(row: HandoverRow, feed: Notice[]) {
    ctx.log.info({ handoverId: row.id, itemId: row.itemId, userId: row.senderId }, 'handover requested')
    announce(row, 'PENDING', feed)
    ctx.nudgeMail()
  }

  async function create(actor: TUser, input: TCreateHandoverRequest): Promise<THandover> {
    const { row, feed } = await ctx.db.transaction((tx) => requestInTx(tx, actor, input))
    const handover = await view(ctx.db, row.id, actor)
    announceCreated(row, feed)
    return handover
  }

  /**
   * The receiver's answer. A confirmation changes the item's holder and appends the ledger block in
   * the same transaction. Locks in one order everywhere (handover, ledger head, item), so two
   * confirmations, a confirmation and a cancel, or a confirmation and a member's removal end in
   * exactly one outcome.
   */
  async function answer(
    actor: TUser,
    id: string,
    input: THandoverAnswer,
  ): Promise<{ handover: THandover; receipt?: TLedgerReceipt }> {
    const { row, names, feed, receipt, after } = await ctx.db.transaction(async (tx) => {
      const handover = await repo.lockHandover(tx, id)
      if (!handover) throw handoverNotFound()
      if (handover.receiverId !== actor.id) await refuse(tx, handover, actor, MESSAGES.handoverOnlyReceiver)
      if (handover.status !== 'PENDING') throw notPending(handover)
      const photos = await receiverEvidence(tx, actor, handover, input)
      const note = receiverNote(input)
      await repo.answerHandover(tx, id, {
        status: input.status,
        receiverComment: input.receiverComment,
        ...note,
      })
      const notes = { ...handover, ...note }
      const evidence = (fromId: string) => blockEvidence(notes, photos, fromId)
      // The email notice and the feed entries first: they need no ledger lock, and every append of the
      // circle waits for as long as a confirmation holds it. A refused confirmation rolls them back.
      const names = (await repo.findHandover(tx, id))!
      await notify(tx, names, input.status)
      if (input.status !== 'CONFIRMED') {
        const after = await tellAnswered(tx, handover, input.status)
        return { row: handover, names, feed: [], receipt: undefined, after }
      }
      if (handover.kind !== 'TRANSFER') {
        // A loan starts or ends (issue 26): the loans module's confirmation, in this transaction.
        if (!lending) throw new Error('no lending hooks for a loan handover')
        const done = await lending.confirm(tx, handover, names, input.receiverComment, evidence)
        // A LOAN handover names the loan its confirmation started.
        if (handover.kind === 'LOAN') await repo.setLoanId(tx, handover.id, done.loanId)
        const told = await tellAnswered(tx, handover, input.status)
        return {
          row: handover,
          names: { ...names, handover: { ...names.handover, loanId: done.loanId } },
          feed: done.feed,
          receipt: done.receipt,
          after: () => {
            done.after()
            told()
          },
        }
      }
      const parties = [handover.senderId, handover.receiverId]
      const feed = await activities.recordHandover(tx, 'CONFIRMED_HANDOVER', parties, activityData(names))
      const receipt = await confirm(tx, handover, names, input.receiverComment, evidence(handover.senderId))
      const after = await tellAnswered(tx, handover, input.status)
      return { row: handover, names, feed, receipt, after }
    })
    // The answer from what the transaction read after its update, and the block it appended.
    const block = receipt
      ? { blockId: receipt.blockId, blockHash: receipt.leafHash, blockHeight: receipt.index }
      : {}
    const handover = (await views(ctx.db, [{ ...names, ...block }], actor))[0]!
    ctx.log.info({ handoverId: id, status: input.status }, 'handover answered')
    announce(row, input.status, feed)
    after()
    ctx.nudgeMail()
    return { handover, receipt }
  }

  /**
   * The receiver's photos attached to the answer (issue 28), and the sender's read for the block: 'as
   * described' needs something of the sender's to refer to and leaves the receiver's side empty.
   */
  async function receiverEvidence(
    tx: Executor,
    actor: TUser,
    handover: HandoverRow,
    input: THandoverAnswer,
  ): Promise<HandoverPhotos> {
    const own = input.condition
    const sent = (await condition.photosFor(tx, [handover.id])).get(handover.id)?.sender ?? []
    if (own?.asDescribed) {
      if (own.photoIds.length > 0 || own.note)
        throw new AppError('VALIDATION_ERROR', MESSAGES.conditionAsDescribedWithOwn)
      if (sent.length === 0 && !handover.senderNote)
        throw new AppError('VALIDATION_ERROR', MESSAGES.conditionNothingDescribed)
    }
    const received = await condition.attachInTx(tx, actor, handover.id, 'receiver', own?.photoIds ?? [])
    return { sender: sent, receiver: received }
  }

  /** The item moves and the block is appended, under the circle's ledger lock. */
  async function confirm(
    tx: Executor,
    handover: HandoverRow,
    names: HandoverViewRow,
    receiverComment: string | null,
    evidence: BlockEvidence | null,
  ): Promise<TLedgerReceipt> {
    const log = await ledger.lockCircle(tx, handover.circleId)
    const item = await items.lockForHandover(tx, handover.itemId)
    const parties = [handover.senderId, handover.receiverId]
    const bothMembers = await repo.areMembers(tx, handover.circleId, parties)
    if (!item || item.ownerId !== handover.senderId || !bothMembers) {
      throw new AppError('CONFLICT', MESSAGES.handoverPartyLeft)
    }
    // Out on loan (issue 26): a request made before cannot move it now.
    if (await lending?.activeLoan(tx, item.id)) throw new AppError('CONFLICT', MESSAGES.itemOnLoan)
    const ownership = handover.completeOwnership ? 'COMPLETE' : 'PARTIAL'
    await items.moveTo(tx, item.id, { ownerId: handover.receiverId, ownership })
    const { receipt } = await log.append({
      kind: 'HANDOVER',
      handoverId: handover.id,
      item: { id: item.id, name: item.name },
      from: { id: handover.senderId, name: names.senderName },
      to: { id: handover.receiverId, name: names.receiverName },
      ownership,
      reason: null,
      commitments: {
        requesterComment: commitment(handover.requesterComment, handover.requesterCommentSalt),
        receiverComment: commitment(receiverComment, handover.receiverCommentSalt),
        secretMessage: commitment(handover.secretMessage, handover.secretMessageSalt),
      },
      evidence,
    })
    return receipt
  }

  /** The sender withdraws a PENDING request; it stays in the history as CANCELLED. */
  async function cancel(actor: TUser, id: string): Promise<void> {
    const { handover, after } = await ctx.db.transaction(async (tx) => {
      const row = await repo.lockHandover(tx, id)
      if (!row) throw handoverNotFound()
      if (row.senderId !== actor.id) await refuse(tx, row, actor, MESSAGES.handoverOnlySender)
      if (row.status !== 'PENDING') throw notPending(row)
      await repo.cancelHandover(tx, id)
      return { handover: row, after: await tellAnswered(tx, row, 'CANCELLED') }
    })
    ctx.log.info({ handoverId: id }, 'handover cancelled')
    announce(handover, 'CANCELLED')
    after()
    ctx.nudgeMail()
  }

  /**
   * For the circles module, inside its transaction: a member leaves, their open requests are cancelled
   * (they stay in the items' histories as CANCELLED). It calls
   * `announceWithdrawn` with the result after its commit.
   */
  function withdrawInvolving(tx: Executor, circleId: string, userId: string): Promise<HandoverRow[]> {
    return repo.cancelPendingInvolving(tx, circleId, userId)
  }

  /**
   * For a module above this one, inside its transaction: cancels the request if it is still PENDING
   * (without telling the `onAnswered` listeners: the caller is the one who acts). Returns the cancelled
   * row, for `announceWithdrawn` after the commit.
   */
  async function cancelInTx(tx: Executor, id: string): Promise<HandoverRow[]> {
    const row = await repo.lockHandover(tx, id)
    if (!row || row.status !== 'PENDING') return []
    await repo.cancelHandover(tx, id)
    return [row]
  }

  function announceWithdrawn(withdrawn: HandoverRow[]) {
    for (const handover of withdrawn) announce(handover, 'CANCELLED')
  }

  return {
    useLending,
    listMine,
    listForItem,
    create,
    requestInTx,
    requestReturnInTx,
    announceCreated,
    answer,
    cancel,
    withdrawInvolving,
    announceWithdrawn,
    onAnswered,
    cancelInTx,
  }
}

export type HandoversService = ReturnType<typeof createHandoversService>
