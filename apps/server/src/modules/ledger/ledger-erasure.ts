import type { Executor } from '../../db/client'

// PLACEHOLDER: h-ledger3's version of this file replaces it at the merge (issue 24). The account
// deletion (modules/account-deletion/account-deletion.service.ts) calls these two inside its transaction; here
// they do nothing, so the deletion can be built and tested without the ledger's erasure.

/** Erases the person's names from every block about them, all circles; returns the count. */
export async function erasePersonFromLedger(_tx: Executor, _userId: string): Promise<number> {
  return 0
}

/** A circle closed because its last member left: its blocks, head and checkpoints go. */
export async function deleteCircleLedger(_tx: Executor, _circleId: string): Promise<void> {}
