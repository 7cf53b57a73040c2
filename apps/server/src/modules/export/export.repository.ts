import { and, asc, eq, lt, or } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Executor } from '../../db/client'
import {
  activities,
  blocks,
  circleDepartures,
  circleMembers,
  circles,
  handovers,
  items,
  ledgerHeads,
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
