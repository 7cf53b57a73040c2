import { and, asc, eq, inArray, lt, ne, or } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Executor } from '../../db/client'
import {
  activities,
  blocks,
  borrowRequests,
  calendarFeeds,
  circleDepartures,
  circleMembers,
  circles,
  conditionPhotos,
  handovers,
  items,
  ledgerHeads,
  loanExtensions,
  loanReminders,
  loans,
  users,
  webauthnCredentials,
} from '../../db/schema'

/**
 * The reads of a person's data export (docs/decisions/0038): each query filters by the person's own
 * id, so nothing of anyone else's account can come along.
 */

export async function profileOf(db: Executor, userId: string) {
  const [row] = await db.select().from(users).where(eq(users.id, userId))
  return row
}

/** Passkeys without their keys: what the authenticator said of itself and when. */
export function passkeysOf(db: Executor, userId: string) {
  return db
    .select({
      name: webauthnCredentials.name,
      deviceType: webauthnCredentials.deviceType,
      backedUp: webauthnCredentials.backedUp,
      transports: webauthnCredentials.transports,
      createdAt: webauthnCredentials.createdAt,
      lastUsedAt: webauthnCredentials.lastUsedAt,
    })
    .from(webauthnCredentials)
    .where(eq(webauthnCredentials.userId, userId))
    .orderBy(asc(webauthnCredentials.createdAt))
}

export function membershipsOf(db: Executor, userId: string) {
  return db
    .select({
      circleId: circles.id,
      circleName: circles.name,
      description: circles.description,
      adminId: circles.adminId,
      joinedAt: circleMembers.joinedAt,
    })
    .from(circleMembers)
    .innerJoin(circles, eq(circles.id, circleMembers.circleId))
    .where(eq(circleMembers.userId, userId))
    .orderBy(asc(circleMembers.joinedAt))
}

export function departuresOf(db: Executor, userId: string) {
  return db
    .select({
      circleId: circles.id,
      circleName: circles.name,
      reason: circleDepartures.reason,
      departedAt: circleDepartures.departedAt,
    })
    .from(circleDepartures)
    .innerJoin(circles, eq(circles.id, circleDepartures.circleId))
    .where(eq(circleDepartures.userId, userId))
    .orderBy(asc(circleDepartures.departedAt))
}

const holder = alias(users, 'holder')

/** Items the person created or holds, with their circle and holder. */
export function itemsOf(db: Executor, userId: string) {
  return db
    .select({
      item: items,
      circleName: circles.name,
      holderName: holder.name,
    })
    .from(items)
    .innerJoin(circles, eq(circles.id, items.circleId))
    .innerJoin(holder, eq(holder.id, items.ownerId))
    .where(or(eq(items.createdById, userId), eq(items.ownerId, userId)))
    .orderBy(asc(items.createdAt), asc(items.id))
}

const sender = alias(users, 'sender')
const receiver = alias(users, 'receiver')

/** Every handover the person is a party to; never one between two others. */
export function handoversOf(db: Executor, userId: string) {
  return db
    .select({
      handover: handovers,
      itemName: items.name,
      circleName: circles.name,
      senderName: sender.name,
      receiverName: receiver.name,
    })
    .from(handovers)
    .innerJoin(items, eq(items.id, handovers.itemId))
    .innerJoin(circles, eq(circles.id, handovers.circleId))
    .innerJoin(sender, eq(sender.id, handovers.senderId))
    .innerJoin(receiver, eq(receiver.id, handovers.receiverId))
    .where(or(eq(handovers.senderId, userId), eq(handovers.receiverId, userId)))
    .orderBy(asc(handovers.createdAt), asc(handovers.id))
}

/** The condition photos of these handovers (issue 28), each side in its order. */
export function conditionPhotosOf(db: Executor, handoverIds: string[]) {
  if (handoverIds.length === 0) return Promise.resolve([])
  return db
    .select()
    .from(conditionPhotos)
    .where(inArray(conditionPhotos.handoverId, handoverIds))
    .orderBy(asc(conditionPhotos.handoverId), asc(conditionPhotos.side), asc(conditionPhotos.position))
}

export function activitiesOf(db: Executor, userId: string) {
  return db
    .select()
    .from(activities)
    .where(eq(activities.userId, userId))
    .orderBy(asc(activities.createdAt), asc(activities.id))
}

/** The ledger heads of the circles that hold a block from or to the person. */
export function headsWithBlocksAbout(db: Executor, userId: string) {
  return db
    .selectDistinct({
      circleId: ledgerHeads.circleId,
      size: ledgerHeads.size,
      checkpoint: ledgerHeads.checkpoint,
    })
    .from(ledgerHeads)
    .innerJoin(blocks, eq(blocks.circleId, ledgerHeads.circleId))
    .where(or(eq(blocks.fromId, userId), eq(blocks.toId, userId)))
    .orderBy(asc(ledgerHeads.circleId))
}

/** The circle's blocks from or to the person below `size`, in height order. */
export function blocksAbout(db: Executor, userId: string, circleId: string, size: number) {
  return db
    .select()
    .from(blocks)
    .where(
      and(
        eq(blocks.circleId, circleId),
        lt(blocks.height, size),
        or(eq(blocks.fromId, userId), eq(blocks.toId, userId)),
      ),
    )
    .orderBy(asc(blocks.height))
}

const lender = alias(users, 'lender')
const borrower = alias(users, 'borrower')

/** Every loan the person lent or borrowed (issue 26); never one between two others. */
export function loansOf(db: Executor, userId: string) {
  return db
    .select({
      loan: loans,
      itemName: items.name,
      circleName: circles.name,
      lenderName: lender.name,
      borrowerName: borrower.name,
    })
    .from(loans)
    .innerJoin(items, eq(items.id, loans.itemId))
    .innerJoin(circles, eq(circles.id, loans.circleId))
    .innerJoin(lender, eq(lender.id, loans.lenderId))
    .innerJoin(borrower, eq(borrower.id, loans.borrowerId))
    .where(or(eq(loans.lenderId, userId), eq(loans.borrowerId, userId)))
    .orderBy(asc(loans.startedAt), asc(loans.id))
}

/** The wishes for a later date of these loans (the person's own loans: `loansOf`). */
export function extensionsOf(db: Executor, loanIds: string[]) {
  if (loanIds.length === 0) return Promise.resolve([])
  return db
    .select()
    .from(loanExtensions)
    .where(inArray(loanExtensions.loanId, loanIds))
    .orderBy(asc(loanExtensions.createdAt), asc(loanExtensions.id))
}

/** The one reminder kind that goes to the lender (modules/loan-reminders/schedule.ts). */
const LENDER_REMINDER = 'LENDER_OVERDUE'

/**
 * The reminders sent to the person about these loans: the borrower's (due soon, today, overdue) of the
 * loans they borrowed, the lender's overdue notice of the loans they lent.
 */
export function remindersOf(db: Executor, userId: string) {
  return db
    .select({
      loanId: loanReminders.loanId,
      kind: loanReminders.kind,
      dueAt: loanReminders.dueAt,
      sentAt: loanReminders.sentAt,
    })
    .from(loanReminders)
    .innerJoin(loans, eq(loans.id, loanReminders.loanId))
    .where(
      or(
        and(eq(loans.borrowerId, userId), ne(loanReminders.kind, LENDER_REMINDER)),
        and(eq(loans.lenderId, userId), eq(loanReminders.kind, LENDER_REMINDER)),
      ),
    )
    .orderBy(asc(loanReminders.claimedAt), asc(loanReminders.kind))
}

const itemOwner = alias(users, 'item_owner')

/** The person's own asks to borrow (as the asker), with the item's owner. */
export function borrowRequestsOf(db: Executor, userId: string) {
  return db
    .select({
      request: borrowRequests,
      itemName: items.name,
      circleName: circles.name,
      ownerId: items.ownerId,
      ownerName: itemOwner.name,
    })
    .from(borrowRequests)
    .innerJoin(items, eq(items.id, borrowRequests.itemId))
    .innerJoin(circles, eq(circles.id, borrowRequests.circleId))
    .innerJoin(itemOwner, eq(itemOwner.id, items.ownerId))
    .where(eq(borrowRequests.askerId, userId))
    .orderBy(asc(borrowRequests.createdAt), asc(borrowRequests.id))
}

/** Whether the person has a calendar feed, and since when (never its token hash). */
export async function calendarFeedOf(db: Executor, userId: string) {
  const [row] = await db
    .select({ createdAt: calendarFeeds.createdAt })
    .from(calendarFeeds)
    .where(eq(calendarFeeds.userId, userId))
  return row
}
