import { and, eq, inArray, or, sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import type { Executor } from '../../db/client'
import {
  activities,
  blocks,
  circleDepartures,
  circleMembers,
  circles,
  contactMessages,
  emailVerificationTokens,
  handovers,
  invitations,
  items,
  outbox,
  passwordResetTokens,
  users,
  webauthnChallenges,
  webauthnCredentials,
} from '../../db/schema'

/** The person's row, locked for the deletion: a second deletion at once waits, then finds it done. */
export async function lockUser(tx: Executor, id: string) {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).for('update').limit(1)
  return row
}

/** Their circles, each with its admin, member count and the longest-standing other member. */
export async function circlesOf(db: Executor, userId: string) {
  return db
    .select({
      id: circles.id,
      name: circles.name,
      adminId: circles.adminId,
      memberCount: sql<number>`(select count(*)::int from circle_members m where m.circle_id = ${circles.id})`,
      successorId: sql<
        string | null
      >`(select m.user_id from circle_members m where m.circle_id = ${circles.id} and m.user_id <> ${userId} order by m.joined_at, m.id limit 1)`,
    })
    .from(circleMembers)
    .innerJoin(circles, eq(circles.id, circleMembers.circleId))
    .where(eq(circleMembers.userId, userId))
    .orderBy(circles.id)
}

export async function namesOf(db: Executor, ids: string[]) {
  if (ids.length === 0) return new Map<string, string>()
  const rows = await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, ids))
  return new Map(rows.map((r) => [r.id, r.name]))
}

export async function itemsHeldBy(db: Executor, userId: string) {
  return db
    .select({
      id: items.id,
      name: items.name,
      circleId: items.circleId,
      ownership: items.ownership,
      imageId: items.imageId,
      imageType: items.imageType,
    })
    .from(items)
    .where(eq(items.ownerId, userId))
    .orderBy(items.circleId, items.name)
}

export async function picturesOfCircle(db: Executor, circleId: string) {
  return db
    .select({ imageId: items.imageId, imageType: items.imageType })
    .from(items)
    .where(eq(items.circleId, circleId))
}

export async function countPendingHandovers(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(handovers)
    .where(
      and(
        eq(handovers.status, 'PENDING'),
        or(eq(handovers.senderId, userId), eq(handovers.receiverId, userId)),
      ),
    )
  return row?.n ?? 0
}

export async function countPasskeys(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(webauthnCredentials)
    .where(eq(webauthnCredentials.userId, userId))
  return row?.n ?? 0
}

/** Every name the ledger recorded for the person (names change; the feed kept the one of its day). */
export async function ledgerNamesOf(db: Executor, userId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({
      name: sql<string>`case when ${blocks.fromId} = ${userId} then ${blocks.fromName} else ${blocks.toName} end`,
    })
    .from(blocks)
    .where(or(eq(blocks.fromId, userId), eq(blocks.toId, userId)))
  return rows.map((r) => r.name).filter((name): name is string => typeof name === 'string' && name !== '')
}

/** Circles they left or were removed from: the feed entries about those name them too. */
export async function departedCircleIds(db: Executor, userId: string): Promise<string[]> {
  const rows = await db
    .select({ circleId: circleDepartures.circleId })
    .from(circleDepartures)
    .where(eq(circleDepartures.userId, userId))
  return rows.map((r) => r.circleId)
}

/** A circle closed because its last member leaves: its feed entries (anyone's), then the circle and all that cascades. */
export async function deleteCircle(tx: Executor, circleId: string) {
  await tx
    .delete(activities)
    .where(sql`coalesce(${activities.data}->>'circleId', ${activities.data}->'circle'->>'id') = ${circleId}`)
  await tx.delete(circles).where(eq(circles.id, circleId))
}

/** What they wrote in handovers: the request's comment and secret as sender, the answer's comment as receiver. */
export async function eraseHandoverTexts(tx: Executor, userId: string) {
  await tx
    .update(handovers)
    .set({ requesterComment: null, secretMessage: null })
    .where(eq(handovers.senderId, userId))
  await tx.update(handovers).set({ receiverComment: null }).where(eq(handovers.receiverId, userId))
}

export async function deleteItems(tx: Executor, ids: string[]) {
  if (ids.length > 0) await tx.delete(items).where(inArray(items.id, ids))
}

/** HTML bodies carry names escaped. */
const htmlEscaped = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')

/** Everything else about them that is not the tombstone itself. */
export async function deletePersonalRows(tx: Executor, user: { id: string; email: string; name: string }) {
  await tx.delete(emailVerificationTokens).where(eq(emailVerificationTokens.userId, user.id))
  await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id))
  await tx.delete(webauthnCredentials).where(eq(webauthnCredentials.userId, user.id))
  await tx.delete(webauthnChallenges).where(eq(webauthnChallenges.userId, user.id))
  await tx.delete(invitations).where(eq(invitations.email, user.email))
  await tx.delete(contactMessages).where(eq(contactMessages.email, user.email))
  await tx.delete(activities).where(eq(activities.userId, user.id))
  const needles = [...new Set([user.email, user.name, htmlEscaped(user.name)].filter((n) => n.length > 0))]
  const contains = (column: AnyPgColumn) =>
    needles.map((needle) => sql`strpos(coalesce(${column}, ''), ${needle}) > 0`)
  await tx
    .delete(outbox)
    .where(
      or(
        eq(outbox.toAddress, user.email),
        and(
          inArray(outbox.status, ['pending', 'sending']),
          or(
            ...contains(outbox.subject),
            ...contains(outbox.textBody),
            ...contains(outbox.htmlBody),
            ...contains(outbox.replyTo),
          ),
        ),
      ),
    )
}

/** The tombstone: no name, an address that says nothing, no password that any input matches, every session ended. */
export async function writeTombstone(tx: Executor, userId: string, placeholderEmail: string) {
  await tx
    .update(users)
    .set({
      name: '',
      email: placeholderEmail,
      passwordHash: '!deleted',
      emailVerified: false,
      notifyHandoverRequests: false,
      notifyHandoverAnswers: false,
      notifyInvitations: false,
      sessionVersion: sql`${users.sessionVersion} + 1`,
      deletedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(eq(users.id, userId))
}
