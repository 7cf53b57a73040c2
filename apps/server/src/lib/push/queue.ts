import { and, eq, inArray, lte, sql } from 'drizzle-orm'
import type { Db, Executor } from '../../db/client'
import { pushOutbox, pushSubscriptions } from '../../db/schema'

/** What a device shows: the notice's title and body, a tag (a newer notice of the same tag replaces it), a same-origin path. */
export interface PushNotice {
  title: string
  body: string
  tag: string
  url: string
}

/**
 * Queues a notice for every device of the person, inside the caller's transaction, so it exists exactly
 * when the change does; the push worker sends it after commit (docs/decisions/0053). Returns how many.
 */
export async function enqueuePush(tx: Executor, userId: string, kind: string, notice: PushNotice) {
  const result = await tx.execute(sql`
    insert into ${pushOutbox} (subscription_id, kind, payload)
    select id, ${kind}, ${JSON.stringify(notice)} from ${pushSubscriptions} where user_id = ${userId}`)
  const counted = result as { rowCount?: number | null; affectedRows?: number }
  return counted.rowCount ?? counted.affectedRows ?? 0
}

/** Several people's notices in one statement (the loan reminder scan's batch). */
export async function enqueuePushes(
  tx: Executor,
  pushes: { userId: string; kind: string; notice: PushNotice }[],
) {
  if (pushes.length === 0) return
  const rows = pushes.map((p) => ({ user_id: p.userId, kind: p.kind, payload: JSON.stringify(p.notice) }))
  await tx.execute(sql`
    insert into ${pushOutbox} (subscription_id, kind, payload)
    select s.id, t.kind, t.payload
    from json_to_recordset(${JSON.stringify(rows)}::json) as t(user_id uuid, kind text, payload text)
    join ${pushSubscriptions} s on s.user_id = t.user_id`)
}

export interface PushJob {
  id: string
  attempts: number
  payload: string
  subscriptionId: string
  endpoint: string
  p256dh: string
  auth: string
}

/**
 * Takes the oldest due message with its device and marks it `sending`, leased until `leaseMs` from now;
 * SKIP LOCKED lets instances share the queue. A lease that ran out (the instance stopped) is simply due
 * again: a push that arrives twice shows once, under its tag.
 */
export async function claimNextPush(db: Db, leaseMs: number): Promise<PushJob | undefined> {
  const due = db
    .select({ id: pushOutbox.id })
    .from(pushOutbox)
    .where(and(inArray(pushOutbox.status, ['pending', 'sending']), lte(pushOutbox.nextAttemptAt, sql`now()`)))
    .orderBy(pushOutbox.nextAttemptAt)
    .limit(1)
    .for('update', { skipLocked: true })
  const [row] = await db
    .update(pushOutbox)
    .set({
      status: 'sending',
      attempts: sql`${pushOutbox.attempts} + 1`,
      nextAttemptAt: sql`now() + make_interval(secs => ${leaseMs / 1000})`,
    })
    .where(eq(pushOutbox.id, sql`(${due})`))
    .returning({
      id: pushOutbox.id,
      attempts: pushOutbox.attempts,
      payload: pushOutbox.payload,
      subscriptionId: pushOutbox.subscriptionId,
    })
  if (!row) return undefined
  const [device] = await db
    .select({
      endpoint: pushSubscriptions.endpoint,
      p256dh: pushSubscriptions.p256dh,
      auth: pushSubscriptions.auth,
    })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.id, row.subscriptionId))
  // The device went away between the two statements (its row cascades the message away too).
  if (!device) return claimNextPush(db, leaseMs)
  return { ...row, ...device }
}

const ourClaim = (job: Pick<PushJob, 'id' | 'attempts'>) =>
  and(eq(pushOutbox.id, job.id), eq(pushOutbox.attempts, job.attempts), eq(pushOutbox.status, 'sending'))

/** The push service took it: done, the payload dropped, the device's last success noted. */
export async function markPushSent(db: Db, job: PushJob) {
  await db.transaction(async (tx) => {
    await tx
      .update(pushOutbox)
      .set({ status: 'sent', payload: '', sentAt: sql`now()`, lastError: null })
      .where(ourClaim(job))
    await tx
      .update(pushSubscriptions)
      .set({ lastSuccessAt: sql`now()` })
      .where(eq(pushSubscriptions.id, job.subscriptionId))
  })
}

/** Retry after `retryInMs`, or give up (null) and drop the payload. */
export async function markPushNotSent(db: Db, job: PushJob, retryInMs: number | null, error: string) {
  await db
    .update(pushOutbox)
    .set({
      ...(retryInMs === null && { payload: '' }),
      status: retryInMs === null ? 'failed' : 'pending',
      lastError: error.slice(0, 500),
      nextAttemptAt: sql`now() + make_interval(secs => ${(retryInMs ?? 0) / 1000})`,
    })
    .where(ourClaim(job))
}

/** The push service says the device is gone (404/410): the subscription goes, its queued messages with it. */
export async function forgetDevice(db: Db, subscriptionId: string) {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, subscriptionId))
}
