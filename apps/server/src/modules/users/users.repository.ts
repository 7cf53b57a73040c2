import { and, eq, isNull, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client'
import { prepared } from '../../db/prepared'
import { emailVerificationTokens, passwordResetTokens, users } from '../../db/schema'

export type UserRow = typeof users.$inferSelect
export type NewUser = typeof users.$inferInsert

/** A deleted account's tombstone is no account (docs/decisions/0035). */
export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.email, email), isNull(users.deletedAt)))
    .limit(1)
  return row
}

/** The session's user: every authenticated request asks, so the query is prepared once. */
export async function findUserById(db: Executor, id: string): Promise<UserRow | undefined> {
  const query = prepared(db, 'user_by_id', (d) =>
    d
      .select()
      .from(users)
      .where(eq(users.id, sql.placeholder('id')))
      .limit(1),
  )
  const [row] = await query.execute({ id })
  return row
}

/** Inserts unless the email is taken; returns undefined on a taken email (one statement, no race). */
export async function insertUser(db: Executor, user: NewUser): Promise<UserRow | undefined> {
  const [row] = await db.insert(users).values(user).onConflictDoNothing({ target: users.email }).returning()
  return row
}

export async function updateUser(
  db: Executor,
  id: string,
  patch: Partial<NewUser>,
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(users.id, id))
    .returning()
  return row
}

export async function setPasswordAndEndSessions(db: Executor, id: string, passwordHash: string) {
  await db
    .update(users)
    .set({
      passwordHash,
      emailVerified: true,
      sessionVersion: sql`${users.sessionVersion} + 1`,
      updatedAt: sql`now()`,
    })
    .where(eq(users.id, id))
}

/**
 * A password change (issue 24): the new hash and a session version bump, only while the session version
 * and the hash are those the caller checked. Answers the new session version, or undefined when either
 * changed meanwhile (another change or a reset ended the caller's session first).
 */
export async function changePasswordAndEndSessions(
  db: Executor,
  id: string,
  expected: { sessionVersion: number; passwordHash: string },
  passwordHash: string,
): Promise<number | undefined> {
  const [row] = await db
    .update(users)
    .set({ passwordHash, sessionVersion: sql`${users.sessionVersion} + 1`, updatedAt: sql`now()` })
    .where(
      and(
        eq(users.id, id),
        eq(users.sessionVersion, expected.sessionVersion),
        eq(users.passwordHash, expected.passwordHash),
      ),
    )
    .returning({ sessionVersion: users.sessionVersion })
  return row?.sessionVersion
}

const TOKEN_TABLES = { verification: emailVerificationTokens, reset: passwordResetTokens }
export type TokenKind = keyof typeof TOKEN_TABLES
export type TokenRow = typeof emailVerificationTokens.$inferSelect

/** A fresh link replaces any earlier unused one of the same kind. */
export async function replaceToken(
  db: Executor,
  kind: TokenKind,
  userId: string,
  tokenHash: string,
  expiresAt: Date,
) {
  const table = TOKEN_TABLES[kind]
  await db.delete(table).where(and(eq(table.userId, userId), isNull(table.usedAt)))
  await db.insert(table).values({ userId, tokenHash, expiresAt })
}

export async function findToken(
  db: Executor,
  kind: TokenKind,
  tokenHash: string,
): Promise<TokenRow | undefined> {
  const table = TOKEN_TABLES[kind]
  const [row] = await db.select().from(table).where(eq(table.tokenHash, tokenHash)).limit(1)
  return row
}

/** Marks the token used only if nobody else did first; false means it was already spent. */
export async function consumeToken(db: Executor, kind: TokenKind, id: string): Promise<boolean> {
  const table = TOKEN_TABLES[kind]
  const rows = await db
    .update(table)
    .set({ usedAt: sql`now()` })
    .where(and(eq(table.id, id), isNull(table.usedAt)))
    .returning({ id: table.id })
  return rows.length === 1
}
