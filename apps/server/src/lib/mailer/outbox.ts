import { and, eq, inArray, lte, sql } from 'drizzle-orm'
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

/**
 * Several emails in one statement (the loan reminder scan queues a batch in its transaction). The batch
 * travels as one JSON parameter read by json_to_recordset: a multi-row VALUES would bind seven
 * parameters per email, and building those is most of the cost of a large batch (docs/decisions/0049).
 */
export async function enqueueEmails(tx: Executor, emails: OutgoingEmail[]) {
  if (emails.length === 0) return
  const rows = emails.map(({ to, replyTo, email }) => ({
    kind: email.kind,
    to_address: to,
    reply_to: replyTo ?? null,
    subject: email.subject,
    text_body: email.text,
    html_body: email.html,
    list_unsubscribe: email.listUnsubscribe ?? null,
  }))
  await tx.execute(sql`
    insert into ${outbox} (kind, to_address, reply_to, subject, text_body, html_body, list_unsubscribe)
    select kind, to_address, reply_to, subject, text_body, html_body, list_unsubscribe
    from json_to_recordset(${JSON.stringify(rows)}::json) as t(
      kind text, to_address text, reply_to text, subject text, text_body text, html_body text,
      list_unsubscribe text)`)
}

export type OutboxRow = typeof outbox.$inferSelect

/**
 * What a row keeps once its email is out of our hands (sent, logged, given up or of unknown outcome):
 * the one-time links live in the subject-free bodies and the unsubscribe URL, and the reply-to of a
 * contact message is someone's address; all go. Kind, recipient, times, attempts and the last error
 * stay, which is what an operator needs to see that an email went out (docs/decisions/0022).
 */
const REDACTED = {
  subject: '',
  textBody: '',
  htmlBody: '',
  listUnsubscribe: null,
  replyTo: null,
} as const

/**
 * Takes the oldest due email and marks it `sending` with a lease until `leaseMs` from now. The
 * attempt number it gets (attempts + 1) is its fencing token: only the claim that holds it may
 * record the outcome. SKIP LOCKED lets several instances share one outbox.
 *
 * Before claiming, a `sending` row whose lease ran out (its instance stopped mid-conversation) is
 * marked `unknown` and never sent again: the SMTP server may have accepted it (at most once).
 */
export async function claimNextEmail(db: Db, leaseMs: number): Promise<OutboxRow | undefined> {
  await db
    .update(outbox)
    .set({
      ...REDACTED,
      status: 'unknown',
      lastError: 'the sending instance stopped during delivery; not sent again',
    })
    .where(and(eq(outbox.status, 'sending'), lte(outbox.nextAttemptAt, sql`now()`)))
  const due = db
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(eq(outbox.status, 'pending'), lte(outbox.nextAttemptAt, sql`now()`)))
    .orderBy(outbox.nextAttemptAt)
    .limit(1)
    .for('update', { skipLocked: true })
  const [row] = await db
    .update(outbox)
    .set({
      status: 'sending',
      attempts: sql`${outbox.attempts} + 1`,
      nextAttemptAt: sql`now() + make_interval(secs => ${leaseMs / 1000})`,
    })
    // A scalar subquery runs once (an InitPlan); under IN it may run again per row and, skipping
    // different locked rows each time, claim more than one.
    .where(and(eq(outbox.id, sql`(${due})`), eq(outbox.status, 'pending')))
    .returning()
  return row
}

/**
 * The claim identified by its attempt number, in one of `statuses`. A delivery may still be recorded
 * on a row declared unknown while we were slow; a failure may not (its body is gone by then).
 */
const ourClaim = (row: Pick<OutboxRow, 'id' | 'attempts'>, statuses: OutboxRow['status'][] = ['sending']) =>
  and(eq(outbox.id, row.id), eq(outbox.attempts, row.attempts), inArray(outbox.status, statuses))

/** The server took the message (or it was logged): done, and the body with its links is dropped. */
export async function markDelivered(db: Db, row: OutboxRow, status: 'sent' | 'logged') {
  await db
    .update(outbox)
    .set({ ...REDACTED, status, sentAt: sql`now()`, lastError: null })
    .where(ourClaim(row, ['sending', 'unknown']))
}

/** The server certainly did not take it: retry after `retryInMs`, or give up (null) and drop the body. */
export async function markNotSent(db: Db, row: OutboxRow, retryInMs: number | null, error: string) {
  await db
    .update(outbox)
    .set({
      ...(retryInMs === null && REDACTED),
      lastError: error.slice(0, 500),
      status: retryInMs === null ? 'failed' : 'pending',
      nextAttemptAt: sql`now() + make_interval(secs => ${(retryInMs ?? 0) / 1000})`,
    })
    .where(ourClaim(row))
}

/** The conversation broke after the message may have been taken: never sent again, body dropped. */
export async function markUnknown(db: Db, row: OutboxRow, error: string) {
  await db
    .update(outbox)
    .set({ ...REDACTED, status: 'unknown', lastError: error.slice(0, 500) })
    .where(ourClaim(row))
}
