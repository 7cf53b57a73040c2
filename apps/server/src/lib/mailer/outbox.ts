import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm'
import type { Db, Executor } from '../../db/client'
import { outbox } from '../../db/schema'
import type { RenderedEmail } from './templates'

export interface OutgoingEmail {
  to: string
  replyTo?: string
  email: RenderedEmail
}

/** Called inside the service's transaction, so the email exists exactly when the change does. */
export async function enqueueEmail(tx: Executor, { to, replyTo, email }: OutgoingEmail) {
  await tx.insert(outbox).values({
    kind: email.kind,
    toAddress: to,
    replyTo: replyTo ?? null,
    subject: email.subject,
    textBody: email.text,
    htmlBody: email.html,
    listUnsubscribe: email.listUnsubscribe ?? null,
  })
}

export type OutboxRow = typeof outbox.$inferSelect

/** How long a claimed row stays hidden from other workers while it is being sent. */
const LEASE = sql`now() + interval '2 minutes'`

/**
 * Takes up to `limit` due rows and leases them; SKIP LOCKED lets several instances share one outbox
 * without sending a message twice.
 */
export async function claimDueEmails(db: Db, limit = 10): Promise<OutboxRow[]> {
  const due = db
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(eq(outbox.status, 'pending'), lte(outbox.nextAttemptAt, sql`now()`)))
    .orderBy(asc(outbox.nextAttemptAt))
    .limit(limit)
    .for('update', { skipLocked: true })
  return db.update(outbox).set({ nextAttemptAt: LEASE }).where(inArray(outbox.id, due)).returning()
}

export async function markDelivered(db: Db, id: string, status: 'sent' | 'logged') {
  await db
    .update(outbox)
    .set({ status, sentAt: sql`now()`, lastError: null })
    .where(eq(outbox.id, id))
}

export async function markFailedAttempt(
  db: Db,
  id: string,
  attempts: number,
  retryInMs: number | null,
  error: string,
) {
  await db
    .update(outbox)
    .set({
      attempts,
      lastError: error.slice(0, 500),
      status: retryInMs === null ? 'failed' : 'pending',
      nextAttemptAt: sql`now() + make_interval(secs => ${(retryInMs ?? 0) / 1000})`,
    })
    .where(eq(outbox.id, id))
}
