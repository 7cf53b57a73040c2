import { and, asc, count, desc, eq, ne, type SQL, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client'
import {
  circleMembers,
  circles,
  ledgerCosignatures,
  ledgerHeads,
  ledgerWitnessCosignatures,
  users,
  witnessKeys,
} from '../../db/schema'

export type WitnessKeyRow = typeof witnessKeys.$inferSelect

/**
 * Holds the account's row for the rest of the transaction: one registration of the account at a time,
 * so two devices registering at once cannot pass the limit together. (The account deletion locks the
 * same row first too.)
 */
export async function lockAccount(tx: Executor, userId: string) {
  await tx.execute(sql`select id from users where id = ${userId} for update`)
}

/** When the server last kept a cosignature made with the key (members' devices' cosignatures). */
const lastCosignedAt = sql<Date | string | null>`(
  select max(c.created_at) from ${ledgerCosignatures} c where c.witness_key_id = ${witnessKeys.id}
)`

export type WitnessKeyWithUse = WitnessKeyRow & { lastCosignedAt: Date | null }

const asDate = (value: Date | string | null) => (value === null ? null : new Date(value))

/** The account's keys, newest first, each with its last kept cosignature's time. */
export async function keysOf(db: Executor, userId: string): Promise<WitnessKeyWithUse[]> {
  const rows = await db
    .select({ key: witnessKeys, lastCosignedAt })
    .from(witnessKeys)
    .where(eq(witnessKeys.userId, userId))
    .orderBy(desc(witnessKeys.createdAt), asc(witnessKeys.deviceId))
  return rows.map((row) => ({ ...row.key, lastCosignedAt: asDate(row.lastCosignedAt) }))
}

/**
 * The account's keys other than this device's that were used least recently (their last kept
 * cosignature, else their registration), oldest first: the ones a new device replaces at the limit.
 */
export async function leastRecentlyUsedKeys(db: Executor, userId: string, deviceId: string, n: number) {
  if (n <= 0) return []
  return db
    .select({ deviceId: witnessKeys.deviceId })
    .from(witnessKeys)
    .where(and(eq(witnessKeys.userId, userId), ne(witnessKeys.deviceId, deviceId)))
    .orderBy(sql`coalesce(${lastCosignedAt}, ${witnessKeys.createdAt})`, asc(witnessKeys.createdAt))
    .limit(n)
}

/**
 * For "Download my data": per key of the account, the circles it cosigned checkpoints of (with the
 * circle's name while it exists) and how many cosignatures the server keeps.
 */
export async function cosignedCirclesOf(db: Executor, userId: string) {
  const result = (await db.execute(sql`
    select c.witness_key_id as "keyId", c.circle_id as "circleId", ci.name as "circleName",
      count(*)::int as "count"
    from ${ledgerCosignatures} c
    join ${witnessKeys} k on k.id = c.witness_key_id
    left join ${circles} ci on ci.id = c.circle_id
    where k.user_id = ${userId}
    group by c.witness_key_id, c.circle_id, ci.name
    order by ci.name, c.circle_id`)) as unknown as {
    rows: { keyId: string; circleId: string; circleName: string | null; count: number }[]
  }
  return result.rows
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
  row: { userId: string; deviceId: string; name: string; publicKey: string; label: string | null },
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
    .select({
      userId: witnessKeys.userId,
      memberName: users.name,
      name: witnessKeys.name,
      publicKey: witnessKeys.publicKey,
    })
    .from(witnessKeys)
    .innerJoin(circleMembers, eq(circleMembers.userId, witnessKeys.userId))
    .innerJoin(users, eq(users.id, witnessKeys.userId))
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
 * The cosignature lines on the circle's checkpoint of `size` (SQL expressions, so a query can take them
 * from a row it reads), ordered as served: members' devices (current members only, oldest first), then
 * outside witnesses (by name). A JSON array of strings, empty when there are none.
 */
const linesOf = (circleId: SQL, size: SQL) => sql`coalesce((
    select json_agg(l.line order by l.kind, l.created_at, l.name) from (
      select c.line, 0 as kind, c.created_at, k.name
      from ${ledgerCosignatures} c
      join ${witnessKeys} k on k.id = c.witness_key_id
      join ${circleMembers} m on m.user_id = k.user_id and m.circle_id = c.circle_id
      where c.circle_id = ${circleId} and c.size = ${size}
      union all
      select w.line, 1 as kind, w.created_at, w.witness as name
      from ${ledgerWitnessCosignatures} w
      where w.circle_id = ${circleId} and w.size = ${size}
    ) l
  ), '[]'::json)`

/** A JSON column as the driver gives it: parsed by node-postgres and PGlite, text should one not. */
const jsonArray = (value: unknown): string[] =>
  (typeof value === 'string' ? JSON.parse(value) : value) as string[]

/** Every cosignature line on the circle's checkpoint of `size`, in one query (see linesOf). */
export async function cosignersLines(db: Executor, circleId: string, size: number): Promise<string[]> {
  const result = (await db.execute(
    sql`select ${linesOf(sql`${circleId}::uuid`, sql`${size}::integer`)} as lines`,
  )) as unknown as { rows: { lines: unknown }[] }
  return jsonArray(result.rows[0]!.lines)
}

/**
 * The circle log's head (its size and newest signed checkpoint) with the cosignature lines on that
 * checkpoint, in one query, so the lines are those of the size read (the newest checkpoint's answer,
 * docs/decisions/0066); undefined for a circle that has no head yet.
 */
export async function cosignedHead(
  db: Executor,
  circleId: string,
): Promise<{ size: number; checkpoint: string | null; lines: string[] } | undefined> {
  const result = (await db.execute(sql`
    select h.size, h.checkpoint, ${linesOf(sql`h.circle_id`, sql`h.size`)} as lines
    from ${ledgerHeads} h where h.circle_id = ${circleId}`)) as unknown as {
    rows: { size: number | string; checkpoint: string | null; lines: unknown }[]
  }
  const row = result.rows[0]
  return row && { size: Number(row.size), checkpoint: row.checkpoint, lines: jsonArray(row.lines) }
}

export interface CosignatureOfLog {
  size: number
  line: string
  /** The cosigner's key name. */
  name: string
  /** A member device's public key (base64); null for an outside witness (its key is in LEDGER_WITNESSES). */
  publicKey: string | null
}

/**
 * Every cosignature line on the circle's checkpoints of `from` to `to` entries, in one query, in the order
 * the checkpoint serves them (docs/decisions/0064): for the export and "Download my data".
 */
export async function cosignaturesOfLog(
  db: Executor,
  circleId: string,
  from: number,
  to: number,
): Promise<CosignatureOfLog[]> {
  const result = (await db.execute(sql`
    select size, line, name, public_key as "publicKey" from (
      select c.size, c.line, 0 as kind, c.created_at, k.name, k.public_key
      from ${ledgerCosignatures} c
      join ${witnessKeys} k on k.id = c.witness_key_id
      join ${circleMembers} m on m.user_id = k.user_id and m.circle_id = c.circle_id
      where c.circle_id = ${circleId} and c.size between ${from} and ${to}
      union all
      select w.size, w.line, 1 as kind, w.created_at, w.witness as name, null as public_key
      from ${ledgerWitnessCosignatures} w
      where w.circle_id = ${circleId} and w.size between ${from} and ${to}
    ) lines
    order by size, kind, created_at, name`)) as unknown as { rows: CosignatureOfLog[] }
  return result.rows.map((row) => ({ ...row, size: Number(row.size) }))
}
