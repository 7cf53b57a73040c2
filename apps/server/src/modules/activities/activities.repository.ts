import { randomUUID } from 'node:crypto'
import { and, desc, eq, ne, or, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client'
import { activities, circleMembers, handovers, items } from '../../db/schema'

export type ActivityRow = typeof activities.$inferSelect
export type NewActivity = typeof activities.$inferInsert

export function insertActivities(tx: Executor, rows: NewActivity[]): Promise<ActivityRow[]> {
  if (rows.length === 0) return Promise.resolve([])
  return tx.insert(activities).values(rows).returning()
}

/**
 * Many entries in one statement with one JSON parameter (the loan reminder scan writes thousands per
 * scan; a multi-row VALUES would bind four parameters per entry). Ids are chosen here so each row is
 * known without relying on the order RETURNING gives them back in.
 */
export async function insertActivitiesBatch(
  tx: Executor,
  rows: Pick<NewActivity, 'userId' | 'type' | 'title' | 'data'>[],
): Promise<ActivityRow[]> {
  if (rows.length === 0) return []
  const withIds = rows.map((row) => ({ ...row, id: randomUUID() }))
  const json = JSON.stringify(
    withIds.map((row) => ({
      id: row.id,
      user_id: row.userId,
      type: row.type,
      title: row.title,
      data: row.data,
    })),
  )
  const result = (await tx.execute(sql`
    insert into ${activities} (id, user_id, type, title, data)
    select id, user_id, type, title, data
    from json_to_recordset(${json}::json) as t(id uuid, user_id uuid, type text, title text, data jsonb)
    returning id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at`)) as unknown as {
    rows: { id: string; created_at: string }[]
  }
  const createdAt = new Map(result.rows.map((row) => [row.id, new Date(row.created_at)]))
  return withIds.map((row) => ({ ...row, createdAt: createdAt.get(row.id)! }) as ActivityRow)
}

/** One row for every member of the circle but `exceptUserId`, in one statement. */
export function insertForMembers(
  tx: Executor,
  circleId: string,
  exceptUserId: string,
  entry: Pick<NewActivity, 'type' | 'title' | 'data'>,
): Promise<ActivityRow[]> {
  return tx
    .insert(activities)
    .select(
      tx
        .select({
          id: sql`gen_random_uuid()`.as('id'),
          userId: circleMembers.userId,
          type: sql`${entry.type}`.as('type'),
          title: sql`${entry.title}`.as('title'),
          data: sql`${JSON.stringify(entry.data)}::jsonb`.as('data'),
          createdAt: sql`now()`.as('created_at'),
        })
        .from(circleMembers)
        .where(and(eq(circleMembers.circleId, circleId), ne(circleMembers.userId, exceptUserId))),
    )
    .returning()
}

export type RecentActivityRow = ActivityRow & { handoverStatus: string | null }

/**
 * The newest entries, each request's entry with its handover's status now (by primary key, only for
 * PENDING_HANDOVER entries; null when that handover no longer exists).
 */
export async function recentFor(db: Executor, userId: string, limit: number): Promise<RecentActivityRow[]> {
  const rows = await db
    .select({ activity: activities, handoverStatus: handovers.status })
    .from(activities)
    .leftJoin(
      handovers,
      and(
        eq(activities.type, 'PENDING_HANDOVER'),
        sql`${handovers.id} = (${activities.data}->>'handoverId')::uuid`,
      ),
    )
    .where(eq(activities.userId, userId))
    .orderBy(desc(activities.createdAt), desc(activities.id))
    .limit(limit)
  return rows.map((row) => ({ ...row.activity, handoverStatus: row.handoverStatus }))
}

/** The three dashboard counts in one round trip. */
export async function statsFor(db: Executor, userId: string) {
  const count = (query: ReturnType<typeof sql>) => sql<number>`(${query})::int`
  const [row] = await db
    .select({
      totalCircles: count(
        sql`select count(*) from ${circleMembers} where ${circleMembers.userId} = ${userId}`,
      ),
      pendingHandovers: count(
        sql`select count(*) from ${handovers} where ${handovers.status} = 'PENDING' and ${or(
          eq(handovers.senderId, userId),
          eq(handovers.receiverId, userId),
        )}`,
      ),
      ownedItems: count(sql`select count(*) from ${items} where ${items.ownerId} = ${userId}`),
    })
    .from(sql`(select 1) as one`)
  return row!
}

/**
 * Every entry about one of `circleIds` (by its data's circle), with its handover's parties when it has
 * one: what the account deletion reads to erase the deleted person's name snapshots.
 */
export async function entriesOfCircles(tx: Executor, circleIds: string[]) {
  return tx
    .select({
      id: activities.id,
      type: activities.type,
      data: activities.data,
      senderId: handovers.senderId,
      receiverId: handovers.receiverId,
    })
    .from(activities)
    .leftJoin(handovers, sql`${handovers.id} = (${activities.data}->>'handoverId')::uuid`)
    .where(
      sql`coalesce(${activities.data}->>'circleId', ${activities.data}->'circle'->>'id') in (${sql.join(
        circleIds.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    )
}

export async function updateEntry(tx: Executor, id: string, data: unknown, title: string) {
  await tx.update(activities).set({ data, title }).where(eq(activities.id, id))
}
