import { and, eq, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client'
import { pushSubscriptions } from '../../db/schema'

/**
 * This device's subscription for this person: a new endpoint is added; a known one (the same browser
 * subscribing again, or another person now signed in on it) takes the new keys and the new owner.
 */
export async function upsertSubscription(
  db: Executor,
  row: { userId: string; endpoint: string; p256dh: string; auth: string },
) {
  await db
    .insert(pushSubscriptions)
    .values(row)
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { userId: row.userId, p256dh: row.p256dh, auth: row.auth, createdAt: sql`now()` },
    })
}

/** The person's own device only; true when there was one. */
export async function deleteSubscription(db: Executor, userId: string, endpoint: string): Promise<boolean> {
  const gone = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id })
  return gone.length > 0
}

export async function hasSubscription(db: Executor, userId: string, endpoint: string): Promise<boolean> {
  const [row] = await db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
  return !!row
}

/** Account deletion (docs/decisions/0035): every device of the person, their queued messages with them. */
export async function deleteSubscriptionsOf(db: Executor, userId: string) {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId))
}
