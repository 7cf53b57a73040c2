import { and, eq, isNotNull, or, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client'
import {
  blocks,
  ledgerCheckpoints,
  ledgerCosignatures,
  ledgerHeads,
  ledgerTiles,
  ledgerWitnessCosignatures,
  ledgerWitnessState,
  witnessKeys,
} from '../../db/schema'

/**
 * Issue 24 (docs/decisions/0034): what the account deletion does to the ledger, in the caller's
 * transaction. Nothing here changes a hash, a link, the Merkle tree or a signed checkpoint.
 */

/**
 * Erases a person's names from every block about them, in every circle: on a v3 block the name kept
 * beside it and its salt (the hash covers only the commitment, so the block verifies completely); on a
 * v1/v2 block, whose hash covered the name in clear, the name (the block is then served redacted and
 * verified by its links and its place in the signed log). The append-only trigger allows exactly this:
 * those four columns, set to NULL. Returns how many blocks lost a name now (0 when run again).
 */
export async function erasePersonFromLedger(tx: Executor, userId: string): Promise<number> {
  const erased = new Set<string>()
  const from = await tx
    .update(blocks)
    .set({ fromName: null, fromNameSalt: null })
    .where(and(eq(blocks.fromId, userId), or(isNotNull(blocks.fromName), isNotNull(blocks.fromNameSalt))))
    .returning({ id: blocks.id })
  const to = await tx
    .update(blocks)
    .set({ toName: null, toNameSalt: null })
    .where(and(eq(blocks.toId, userId), or(isNotNull(blocks.toName), isNotNull(blocks.toNameSalt))))
    .returning({ id: blocks.id })
  for (const row of [...from, ...to]) erased.add(row.id)
  return erased.size
}

/**
 * Deletes a circle's whole ledger (its blocks, head and signed checkpoints): for a circle that closes
 * because its last member left, so nobody remains who could read or verify it. The trigger lets the
 * blocks go only for the circle this transaction names in `circles.delete_circle_ledger`.
 */
export async function deleteCircleLedger(tx: Executor, circleId: string): Promise<void> {
  await tx.execute(sql`select set_config('circles.delete_circle_ledger', ${circleId}, true)`)
  await tx.delete(blocks).where(eq(blocks.circleId, circleId))
  await tx.delete(ledgerCosignatures).where(eq(ledgerCosignatures.circleId, circleId))
  await tx.delete(ledgerWitnessCosignatures).where(eq(ledgerWitnessCosignatures.circleId, circleId))
  await tx.delete(ledgerWitnessState).where(eq(ledgerWitnessState.circleId, circleId))
  await tx.delete(ledgerCheckpoints).where(eq(ledgerCheckpoints.circleId, circleId))
  await tx.delete(ledgerTiles).where(eq(ledgerTiles.circleId, circleId))
  await tx.delete(ledgerHeads).where(eq(ledgerHeads.circleId, circleId))
  await tx.execute(sql`select set_config('circles.delete_circle_ledger', '', true)`)
}

/**
 * Issue 29: a deleted account's witness keys, and with them the cosignatures its devices gave (a
 * cosignature nobody can check against a published key is no evidence any more).
 */
export async function eraseWitnessKeys(tx: Executor, userId: string): Promise<void> {
  await tx.delete(witnessKeys).where(eq(witnessKeys.userId, userId))
}
