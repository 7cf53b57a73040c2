import { and, eq, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client'
import { ledgerHeads, ledgerWitnessCosignatures, ledgerWitnessState } from '../../db/schema'

/**
 * Outside witnesses (issue 29, C2SP tlog-witness). A circle is due for a witness when its log is larger
 * than what the witness cosigned last and no request is out (or waiting after a failure). Claiming
 * leases the (circle, witness) row for `leaseMs`: one statement, so two server instances never send the
 * same circle to the same witness at once (the second finds the row leased and skips it).
 */
export async function claimDue(
  db: Executor,
  witness: string,
  leaseMs: number,
): Promise<{ circleId: string; old: number; attempts: number } | undefined> {
  const result = (await db.execute(sql`
    with due as (
      select h.circle_id, coalesce(s.size, 0) as old
      from ${ledgerHeads} h
      left join ${ledgerWitnessState} s on s.circle_id = h.circle_id and s.witness = ${witness}
      where h.checkpoint is not null and h.size > coalesce(s.size, 0)
        and (s.circle_id is null or s.next_attempt_at <= now())
      order by s.next_attempt_at nulls first
      limit 1
    )
    insert into ${ledgerWitnessState} (circle_id, witness, size, attempts, next_attempt_at)
    select circle_id, ${witness}, old, 1, now() + ${leaseMs} * interval '1 millisecond' from due
    on conflict (circle_id, witness) do update
      set attempts = ${ledgerWitnessState}.attempts + 1, next_attempt_at = excluded.next_attempt_at
      where ${ledgerWitnessState}.next_attempt_at <= now()
    returning circle_id, size, attempts`)) as unknown as {
    rows: { circle_id: string; size: number; attempts: number }[]
  }
  const [row] = result.rows
  return row && { circleId: row.circle_id, old: Number(row.size), attempts: Number(row.attempts) }
}

/** The witness cosigned the checkpoint of `size`: its line is kept and its state moves there. */
export async function recordCosigned(
  tx: Executor,
  row: { circleId: string; witness: string; size: number; line: string },
) {
  await tx.insert(ledgerWitnessCosignatures).values(row).onConflictDoNothing()
  await tx
    .update(ledgerWitnessState)
    .set({ size: row.size, attempts: 0, nextAttemptAt: sql`now()` })
    .where(and(eq(ledgerWitnessState.circleId, row.circleId), eq(ledgerWitnessState.witness, row.witness)))
}

/** The witness says it last cosigned `size` (409): the next request starts there, at once. */
export async function recordWitnessSize(db: Executor, circleId: string, witness: string, size: number) {
  await db
    .update(ledgerWitnessState)
    .set({ size, nextAttemptAt: sql`now()` })
    .where(and(eq(ledgerWitnessState.circleId, circleId), eq(ledgerWitnessState.witness, witness)))
}

/** A failed request: the next one waits `backoffMs`. */
export async function recordFailure(db: Executor, circleId: string, witness: string, backoffMs: number) {
  await db
    .update(ledgerWitnessState)
    .set({ nextAttemptAt: sql`now() + ${backoffMs} * interval '1 millisecond'` })
    .where(and(eq(ledgerWitnessState.circleId, circleId), eq(ledgerWitnessState.witness, witness)))
}
