import { and, desc, eq, gt, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client'
import { circles, invitations, users } from '../../db/schema'

export type InvitationRow = typeof invitations.$inferSelect

export async function insertInvitation(
  db: Executor,
  values: Pick<InvitationRow, 'circleId' | 'email' | 'type' | 'tokenHash' | 'invitedById' | 'expiresAt'>,
): Promise<InvitationRow> {
  const [row] = await db.insert(invitations).values(values).returning()
  if (!row) throw new Error('insert invitation returned nothing')
  return row
}

/** A new invitation for an address replaces the pending ones before it: one live link per person. */
export async function cancelPendingInvitationsFor(db: Executor, circleId: string, email: string) {
  await db
    .update(invitations)
    .set({ status: 'CANCELLED', updatedAt: sql`now()` })
    .where(
      and(
        eq(invitations.circleId, circleId),
        eq(invitations.email, email),
        eq(invitations.status, 'PENDING'),
      ),
    )
}

export async function listPendingInvitations(db: Executor, circleId: string): Promise<InvitationRow[]> {
  return db
    .select()
    .from(invitations)
    .where(
      and(
        eq(invitations.circleId, circleId),
        eq(invitations.status, 'PENDING'),
        gt(invitations.expiresAt, sql`now()`),
      ),
    )
    .orderBy(desc(invitations.createdAt))
}

export async function findInvitationInCircle(
  db: Executor,
  circleId: string,
  id: string,
): Promise<InvitationRow | undefined> {
  const [row] = await db
    .select()
    .from(invitations)
    .where(and(eq(invitations.id, id), eq(invitations.circleId, circleId)))
    .limit(1)
  return row
}

export async function findInvitationByTokenHash(db: Executor, tokenHash: string, lock = false) {
  const query = db
    .select({ invitation: invitations, circleName: circles.name, inviterName: users.name })
    .from(invitations)
    .innerJoin(circles, eq(circles.id, invitations.circleId))
    .leftJoin(users, eq(users.id, invitations.invitedById))
    .where(eq(invitations.tokenHash, tokenHash))
    .limit(1)
  const [row] = lock ? await query.for('update', { of: invitations }) : await query
  return row
}

/**
 * Changes a pending invitation and answers it, or answers nothing when it is no longer pending (a
 * concurrent accept, cancel or resend got there first): every state change is conditional on the
 * state it read, in the same statement.
 */
export async function updatePendingInvitation(
  db: Executor,
  id: string,
  patch: Partial<Pick<InvitationRow, 'status' | 'tokenHash' | 'expiresAt' | 'acceptedAt' | 'acceptedById'>>,
): Promise<InvitationRow | undefined> {
  const [row] = await db
    .update(invitations)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(and(eq(invitations.id, id), eq(invitations.status, 'PENDING')))
    .returning()
  return row
}

/** The language of the account behind an address, if there is one: invitations are written in it. */
export async function findLanguageByEmail(db: Executor, email: string) {
  const [row] = await db
    .select({ language: users.language })
    .from(users)
    .where(eq(users.email, email))
    .limit(1)
  return row?.language
}

export async function findUserIdByEmail(db: Executor, email: string): Promise<string | undefined> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1)
  return row?.id
}
