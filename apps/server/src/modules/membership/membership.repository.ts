import { and, eq, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client'
import { prepared } from '../../db/prepared'
import { circleDepartures, circles } from '../../db/schema'

// The reads of the access check (docs/decisions/0046): every module may check membership through
// ./access.ts without importing the circles module. Only reads; the circles module writes these tables.

// Qualified by hand: inside a one-table select drizzle prints `circles.id` as a bare "id", which the
// subquery would read as its own column.
const memberCount = sql<number>`(select count(*)::int from circle_members m where m.circle_id = "circles"."id")`

type CircleRow = typeof circles.$inferSelect

export interface CircleWithCount extends CircleRow {
  memberCount: number
}

/** The circle and whether `userId` is a member, in one round trip (the access check of every call). */
export async function findCircleForUser(db: Executor, id: string, userId: string) {
  const query = prepared(db, 'circle_for_user', (d) =>
    d
      .select({
        circle: circles,
        memberCount,
        isMember: sql<boolean>`exists (select 1 from circle_members m where m.circle_id = "circles"."id" and m.user_id = ${sql.placeholder('userId')})`,
      })
      .from(circles)
      .where(eq(circles.id, sql.placeholder('id')))
      .limit(1),
  )
  const [row] = await query.execute({ id, userId })
  return row && { circle: { ...row.circle, memberCount: row.memberCount }, isMember: row.isMember }
}

export async function findCircle(db: Executor, id: string): Promise<CircleWithCount | undefined> {
  const [row] = await db
    .select({ circle: circles, memberCount })
    .from(circles)
    .where(eq(circles.id, id))
    .limit(1)
  return row && { ...row.circle, memberCount: row.memberCount }
}

export async function findDeparture(db: Executor, circleId: string, userId: string) {
  const [row] = await db
    .select({ reason: circleDepartures.reason })
    .from(circleDepartures)
    .where(and(eq(circleDepartures.circleId, circleId), eq(circleDepartures.userId, userId)))
    .limit(1)
  return row
}
