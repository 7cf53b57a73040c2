import { and, asc, count, desc, eq, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client'
import { prepared } from '../../db/prepared'
import { circleDepartures, circleMembers, circles, users } from '../../db/schema'

export type CircleRow = typeof circles.$inferSelect

// Qualified by hand: inside a one-table select drizzle prints `circles.id` as a bare "id", which the
// subquery would read as its own column.
const memberCount = sql<number>`(select count(*)::int from circle_members m where m.circle_id = "circles"."id")`

export interface CircleWithCount extends CircleRow {
  memberCount: number
}

export async function findCircle(db: Executor, id: string): Promise<CircleWithCount | undefined> {
  const [row] = await db
    .select({ circle: circles, memberCount })
    .from(circles)
    .where(eq(circles.id, id))
    .limit(1)
  return row && { ...row.circle, memberCount: row.memberCount }
}

/** Locks the circle row for the rest of the transaction: membership changes of one circle run one at a time. */
export async function lockCircle(tx: Executor, id: string): Promise<CircleRow | undefined> {
  const [row] = await tx.select().from(circles).where(eq(circles.id, id)).for('update').limit(1)
  return row
}

export async function findMembership(db: Executor, circleId: string, userId: string) {
  const [row] = await db
    .select()
    .from(circleMembers)
    .where(and(eq(circleMembers.circleId, circleId), eq(circleMembers.userId, userId)))
    .limit(1)
  return row
}

export async function listMembershipsOfUser(db: Executor, userId: string) {
  const query = prepared(db, 'memberships_of_user', (d) =>
    d
      .select({ membership: circleMembers, circle: circles, memberCount })
      .from(circleMembers)
      .innerJoin(circles, eq(circles.id, circleMembers.circleId))
      .where(eq(circleMembers.userId, sql.placeholder('userId')))
      .orderBy(desc(circleMembers.joinedAt)),
  )
  const rows = await query.execute({ userId })
  return rows.map((r) => ({ ...r.membership, circle: { ...r.circle, memberCount: r.memberCount } }))
}

export async function listMembers(db: Executor, circleId: string) {
  const query = prepared(db, 'members_of_circle', (d) =>
    d
      .select({
        id: circleMembers.id,
        userId: circleMembers.userId,
        joinedAt: circleMembers.joinedAt,
        user: { id: users.id, name: users.name, email: users.email, avatarId: users.avatarId },
      })
      .from(circleMembers)
      .innerJoin(users, eq(users.id, circleMembers.userId))
      .where(eq(circleMembers.circleId, sql.placeholder('circleId')))
      .orderBy(asc(circleMembers.joinedAt), asc(users.name)),
  )
  return query.execute({ circleId })
}

export async function countCirclesAdministeredBy(db: Executor, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(circles).where(eq(circles.adminId, userId))
  return row?.n ?? 0
}

export async function countMembers(db: Executor, circleId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(circleMembers)
    .where(eq(circleMembers.circleId, circleId))
  return row?.n ?? 0
}

export async function insertCircle(
  db: Executor,
  values: { name: string; description: string | null; adminId: string },
): Promise<CircleRow> {
  const [row] = await db.insert(circles).values(values).returning()
  if (!row) throw new Error('insert circle returned nothing')
  return row
}

export async function updateCircle(
  db: Executor,
  id: string,
  patch: Partial<Pick<CircleRow, 'name' | 'description' | 'adminId'>>,
): Promise<void> {
  await db
    .update(circles)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(circles.id, id))
}

/** Adds the membership unless it exists; false when the user was already a member. */
export async function addMember(db: Executor, circleId: string, userId: string): Promise<boolean> {
  const rows = await db
    .insert(circleMembers)
    .values({ circleId, userId })
    .onConflictDoNothing({ target: [circleMembers.circleId, circleMembers.userId] })
    .returning({ id: circleMembers.id })
  return rows.length > 0
}

export async function removeMember(db: Executor, circleId: string, userId: string): Promise<boolean> {
  const rows = await db
    .delete(circleMembers)
    .where(and(eq(circleMembers.circleId, circleId), eq(circleMembers.userId, userId)))
    .returning({ id: circleMembers.id })
  return rows.length > 0
}

export type DepartureReason = (typeof circleDepartures.$inferSelect)['reason']

/** Why `userId` is no longer a member: the newest departure replaces an earlier one. */
export async function recordDeparture(
  tx: Executor,
  circleId: string,
  userId: string,
  reason: DepartureReason,
) {
  await tx
    .insert(circleDepartures)
    .values({ circleId, userId, reason })
    .onConflictDoUpdate({
      target: [circleDepartures.circleId, circleDepartures.userId],
      set: { reason, departedAt: new Date() },
    })
}

export async function isMemberByEmail(db: Executor, circleId: string, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: circleMembers.id })
    .from(circleMembers)
    .innerJoin(users, eq(users.id, circleMembers.userId))
    .where(and(eq(circleMembers.circleId, circleId), eq(users.email, email)))
    .limit(1)
  return Boolean(row)
}

export async function circleIdsOfUser(db: Executor, userId: string): Promise<string[]> {
  const rows = await db
    .select({ circleId: circleMembers.circleId })
    .from(circleMembers)
    .where(eq(circleMembers.userId, userId))
  return rows.map((r) => r.circleId)
}

/** The member who joined first, other than `userId`: who becomes admin when the admin deletes their account. */
export async function longestStandingOtherMember(db: Executor, circleId: string, userId: string) {
  const [row] = await db
    .select({ userId: circleMembers.userId, name: users.name })
    .from(circleMembers)
    .innerJoin(users, eq(users.id, circleMembers.userId))
    .where(and(eq(circleMembers.circleId, circleId), sql`${circleMembers.userId} <> ${userId}`))
    .orderBy(asc(circleMembers.joinedAt), asc(circleMembers.id))
    .limit(1)
  return row
}
