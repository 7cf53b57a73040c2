import { and, eq, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Executor } from '../../db/client'
import { circleMembers, users } from '../../db/schema'

/** The person's avatar id, their row locked for the change (one avatar change at a time). */
export async function lockAvatar(
  tx: Executor,
  userId: string,
): Promise<{ avatarId: string | null } | undefined> {
  const [row] = await tx
    .select({ avatarId: users.avatarId })
    .from(users)
    .where(eq(users.id, userId))
    .for('update')
  return row
}

export async function setAvatar(tx: Executor, userId: string, avatarId: string | null) {
  const [row] = await tx
    .update(users)
    .set({ avatarId, updatedAt: sql`now()` })
    .where(eq(users.id, userId))
    .returning()
  return row
}

export async function ownerOfAvatar(db: Executor, avatarId: string): Promise<string | undefined> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.avatarId, avatarId)).limit(1)
  return row?.id
}

export async function avatarIdOf(db: Executor, userId: string): Promise<string | null> {
  const [row] = await db.select({ avatarId: users.avatarId }).from(users).where(eq(users.id, userId)).limit(1)
  return row?.avatarId ?? null
}

/** True when both are members of at least one circle together. */
export async function shareACircle(db: Executor, a: string, b: string): Promise<boolean> {
  const other = alias(circleMembers, 'other')
  const [row] = await db
    .select({ circleId: circleMembers.circleId })
    .from(circleMembers)
    .innerJoin(other, eq(other.circleId, circleMembers.circleId))
    .where(and(eq(circleMembers.userId, a), eq(other.userId, b)))
    .limit(1)
  return row !== undefined
}
