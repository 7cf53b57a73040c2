import { and, asc, eq, gt, lt, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client'
import { webauthnChallenges, webauthnCredentials } from '../../db/schema'

export type CredentialRow = typeof webauthnCredentials.$inferSelect
export type NewCredential = typeof webauthnCredentials.$inferInsert
type Purpose = 'registration' | 'authentication'

export function listCredentials(db: Executor, userId: string): Promise<CredentialRow[]> {
  return db
    .select()
    .from(webauthnCredentials)
    .where(eq(webauthnCredentials.userId, userId))
    .orderBy(asc(webauthnCredentials.createdAt))
}

export async function findCredential(db: Executor, id: string): Promise<CredentialRow | undefined> {
  const [row] = await db.select().from(webauthnCredentials).where(eq(webauthnCredentials.id, id)).limit(1)
  return row
}

/** Undefined when the id is taken (a passkey registered twice). */
export async function insertCredential(db: Executor, row: NewCredential): Promise<CredentialRow | undefined> {
  const [inserted] = await db.insert(webauthnCredentials).values(row).onConflictDoNothing().returning()
  return inserted
}

/** Moves the counter only from the value this sign-in checked against: two sign-ins cannot both win. */
export async function advanceCounter(db: Executor, id: string, from: number, to: number): Promise<boolean> {
  const rows = await db
    .update(webauthnCredentials)
    .set({ counter: to, lastUsedAt: new Date() })
    .where(and(eq(webauthnCredentials.id, id), eq(webauthnCredentials.counter, from)))
    .returning({ id: webauthnCredentials.id })
  return rows.length === 1
}

export async function deleteCredential(db: Executor, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(webauthnCredentials)
    .where(and(eq(webauthnCredentials.id, id), eq(webauthnCredentials.userId, userId)))
    .returning({ id: webauthnCredentials.id })
  return rows.length === 1
}

export async function renameCredential(
  db: Executor,
  userId: string,
  id: string,
  name: string,
): Promise<CredentialRow | undefined> {
  const [row] = await db
    .update(webauthnCredentials)
    .set({ name })
    .where(and(eq(webauthnCredentials.id, id), eq(webauthnCredentials.userId, userId)))
    .returning()
  return row
}

/** Stores a new challenge, and drops expired ones on the way. */
export async function saveChallenge(
  db: Executor,
  row: { challenge: string; purpose: Purpose; userId: string | null; expiresAt: Date },
) {
  await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, sql`now()`))
  await db.insert(webauthnChallenges).values(row)
}

/** Takes a live challenge out: each one is good for one verification only. */
export async function consumeChallenge(db: Executor, challenge: string, purpose: Purpose) {
  const [row] = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.challenge, challenge),
        eq(webauthnChallenges.purpose, purpose),
        gt(webauthnChallenges.expiresAt, sql`now()`),
      ),
    )
    .returning()
  return row
}
