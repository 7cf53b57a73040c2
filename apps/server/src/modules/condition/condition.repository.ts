import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client'
import { circleMembers, conditionPhotos, handovers } from '../../db/schema'

export type ConditionPhotoRow = typeof conditionPhotos.$inferSelect
export type NewConditionPhoto = typeof conditionPhotos.$inferInsert
export type PhotoSide = 'sender' | 'receiver'

export async function insertPhoto(db: Executor, photo: NewConditionPhoto): Promise<ConditionPhotoRow> {
  const [row] = await db.insert(conditionPhotos).values(photo).returning()
  return row!
}

/** A stored picture with what decides who sees it: its uploader, and its handover's parties and circle. */
export async function findByImageId(db: Executor, imageId: string) {
  const [row] = await db
    .select({
      photo: conditionPhotos,
      circleId: handovers.circleId,
      senderId: handovers.senderId,
      receiverId: handovers.receiverId,
    })
    .from(conditionPhotos)
    .leftJoin(handovers, eq(handovers.id, conditionPhotos.handoverId))
    .where(eq(conditionPhotos.imageId, imageId))
  return row
}

export async function isMember(db: Executor, circleId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: circleMembers.userId })
    .from(circleMembers)
    .where(and(eq(circleMembers.circleId, circleId), eq(circleMembers.userId, userId)))
  return !!row
}

/**
 * The uploader's photos among `ids` that are not attached yet and uploaded after `since`, locked for the
 * attaching transaction.
 */
export function lockUnattached(
  tx: Executor,
  ids: string[],
  uploaderId: string,
  since: Date,
): Promise<ConditionPhotoRow[]> {
  if (ids.length === 0) return Promise.resolve([])
  return tx
    .select()
    .from(conditionPhotos)
    .where(
      and(
        inArray(conditionPhotos.id, ids),
        eq(conditionPhotos.uploadedBy, uploaderId),
        isNull(conditionPhotos.attachedAt),
        gt(conditionPhotos.createdAt, since),
      ),
    )
    .for('update')
}

export async function attach(
  tx: Executor,
  id: string,
  place: { handoverId: string; side: PhotoSide; position: number; at: Date },
) {
  await tx
    .update(conditionPhotos)
    .set({ handoverId: place.handoverId, side: place.side, position: place.position, attachedAt: place.at })
    .where(eq(conditionPhotos.id, id))
}

/** The photos attached to these handovers, each side in its order. */
export function photosOfHandovers(db: Executor, handoverIds: string[]): Promise<ConditionPhotoRow[]> {
  if (handoverIds.length === 0) return Promise.resolve([])
  return db
    .select()
    .from(conditionPhotos)
    .where(inArray(conditionPhotos.handoverId, handoverIds))
    .orderBy(asc(conditionPhotos.handoverId), asc(conditionPhotos.side), asc(conditionPhotos.position))
}

/** Deletes the uploader's photo if it is not attached; answers the deleted row. */
export async function deleteUnattached(db: Executor, id: string, uploaderId: string) {
  const [row] = await db
    .delete(conditionPhotos)
    .where(
      and(
        eq(conditionPhotos.id, id),
        eq(conditionPhotos.uploadedBy, uploaderId),
        isNull(conditionPhotos.attachedAt),
      ),
    )
    .returning()
  return row
}

/**
 * Photos whose files should go: attached ones whose handover was deleted (with its item), and uploads
 * never attached within `staleBefore` (or whose uploader deleted their account). At most `limit`.
 */
export function sweepable(db: Executor, staleBefore: Date, limit: number) {
  return db
    .select({
      id: conditionPhotos.id,
      imageId: conditionPhotos.imageId,
      imageType: conditionPhotos.imageType,
    })
    .from(conditionPhotos)
    .where(
      or(
        and(isNotNull(conditionPhotos.attachedAt), isNull(conditionPhotos.handoverId)),
        and(
          isNull(conditionPhotos.attachedAt),
          or(lt(conditionPhotos.createdAt, staleBefore), isNull(conditionPhotos.uploadedBy)),
        ),
      ),
    )
    .limit(limit)
}

export async function deletePhotos(db: Executor, ids: string[]) {
  if (ids.length > 0) await db.delete(conditionPhotos).where(inArray(conditionPhotos.id, ids))
}

/** How many unattached photos the uploader holds now (a bound on what one account parks on the server). */
export async function countUnattached(db: Executor, uploaderId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(conditionPhotos)
    .where(and(eq(conditionPhotos.uploadedBy, uploaderId), isNull(conditionPhotos.attachedAt)))
  return row?.n ?? 0
}
