import { and, asc, count, desc, eq, ne, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client'
import { circleMembers, ledgerCosignatures, ledgerWitnessCosignatures, witnessKeys } from '../../db/schema'

export type WitnessKeyRow = typeof witnessKeys.$inferSelect

/**
 * Holds the account's row for the rest of the transaction: one registration of the account at a time,
 * so two devices registering at once cannot pass the limit together. (The account deletion locks the
 * same row first too.)
 */
export async function lockAccount(tx: Executor, userId: string) {
  await tx.execute(sql`select id from users where id = ${userId} for update`)
}

export function keysOf(db: Executor, userId: string): Promise<WitnessKeyRow[]> {
  return db
    .select()
    .from(witnessKeys)
    .where(eq(witnessKeys.userId, userId))
    .orderBy(desc(witnessKeys.createdAt), asc(witnessKeys.deviceId))
}

export async function keyOfDevice(db: Executor, userId: string, deviceId: string) {
  const [row] = await db
    .select()
    .from(witnessKeys)
    .where(and(eq(witnessKeys.userId, userId), eq(witnessKeys.deviceId, deviceId)))
  return row
}

/** How many keys the account's other devices hold. */
export async function countOtherKeys(db: Executor, userId: string, deviceId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(witnessKeys)
    .where(and(eq(witnessKeys.userId, userId), ne(witnessKeys.deviceId, deviceId)))
  return row?.n ?? 0
}

export async function isKeyRegistered(db: Executor, publicKey: string): Promise<boolean> {
  const [row] = await db
    .select({ id: witnessKeys.id })
    .from(witnessKeys)
    .where(eq(witnessKeys.publicKey, publicKey))
  return !!row
}

/** The device's key, gone with its cosignatures (they cascade); true when there was one. */
export async function deleteKeyOfDevice(db: Executor, userId: string, deviceId: string) {
  const gone = await db
    .delete(witnessKeys)
    .where(and(eq(witnessKeys.userId, userId), eq(witnessKeys.deviceId, deviceId)))
    .returning({ id: witnessKeys.id })
  return gone.length > 0
}

export async function insertKey(
  db: Executor,
  row: { userId: string; deviceId: string; name: string; publicKey: string },
): Promise<WitnessKeyRow> {
  const [inserted] = await db.insert(witnessKeys).values(row).returning()
  return inserted!
}

/** The account's key of this C2SP name. */
export async function keyByName(db: Executor, userId: string, name: string) {
  const [row] = await db
    .select()
    .from(witnessKeys)
    .where(and(eq(witnessKeys.userId, userId), eq(witnessKeys.name, name)))
  return row
}

/** The witness keys of the circle's current members. */
export function keysOfCircle(db: Executor, circleId: string) {
  return db
    .select({ userId: witnessKeys.userId, name: witnessKeys.name, publicKey: witnessKeys.publicKey })
    .from(witnessKeys)
    .innerJoin(circleMembers, eq(circleMembers.userId, witnessKeys.userId))
    .where(eq(circleMembers.circleId, circleId))
    .orderBy(asc(witnessKeys.createdAt), asc(witnessKeys.name))
}

/** Keeps a cosignature; a key's second one on the same checkpoint is dropped (the first stays). True if kept. */
export async function insertCosignature(
  db: Executor,
  row: { circleId: string; size: number; witnessKeyId: string; signedAt: number; line: string },
) {
  const inserted = await db
    .insert(ledgerCosignatures)
    .values(row)
    .onConflictDoNothing()
    .returning({ size: ledgerCosignatures.size })
  return inserted.length > 0
}

/**
 * Every cosignature line on the circle's checkpoint of `size`, in one query: members' devices (current
 * members only, oldest first), then outside witnesses (by name).
 */
export async function cosignersLines(db: Executor, circleId: string, size: number): Promise<string[]> {
  const result = (await db.execute(sql`
    select line from (
      select c.line, 0 as kind, c.created_at, k.name
      from ${ledgerCosignatures} c
      join ${witnessKeys} k on k.id = c.witness_key_id
      join ${circleMembers} m on m.user_id = k.user_id and m.circle_id = c.circle_id
      where c.circle_id = ${circleId} and c.size = ${size}
      union all
      select w.line, 1 as kind, w.created_at, w.witness as name
      from ${ledgerWitnessCosignatures} w
      where w.circle_id = ${circleId} and w.size = ${size}
    ) lines
    order by kind, created_at, name`)) as unknown as { rows: { line: string }[] }
  return result.rows.map((row) => row.line)
}
