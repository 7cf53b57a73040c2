import type { TItem } from '@circles/shared'

/**
 * Spec 001 §6: the holder and the circle's admin may edit an item that is not locked (handed over in a
 * confirmed handover), has no pending handover, and whose holder is still in the circle.
 */
export function canEditItem(item: TItem, me: string | undefined): boolean {
  return (
    !item.ownerLeftCircle &&
    (item.ownerId === me || item.circle.adminId === me) &&
    !item.locked &&
    !item.hasPendingHandovers &&
    !item.lending?.loan
  )
}

/**
 * Delete: only its holder with complete ownership, and not while a handover is pending (the server's
 * rule, docs/decisions/0015). The admin edits but does not delete what someone else holds.
 */
export function canDeleteItem(item: TItem, me: string | undefined): boolean {
  return (
    item.ownerId === me && item.ownership === 'COMPLETE' && !item.hasPendingHandovers && !item.lending?.loan
  )
}

/** Why an action is not offered: a key under `detail.reasons`, with the holder's name. */
export type ItemActionReason =
  | 'handOverNotHolder'
  | 'editLocked'
  | 'editPending'
  | 'editNotAllowed'
  | 'deleteNotHolder'
  | 'deletePending'
  | 'partialNote'
  | 'onLoan'

export type ItemActionState = { allowed: true } | { allowed: false; reason: ItemActionReason }

export interface ItemActions {
  /** `view`: a handover is pending, its page shows it (to everyone in the circle). */
  handOver: ItemActionState | { allowed: 'view' }
  edit: ItemActionState
  delete: ItemActionState
}

const allowed = { allowed: true } as const
const refused = (reason: ItemActionReason) => ({ allowed: false, reason }) as const

/**
 * What the item page offers a viewer and, for each action it does not offer, the true reason (the
 * server's rules: handovers.service `create`, items.service `requireEditable` and `remove`). For an
 * item whose holder left the circle the page shows its own notice instead.
 */
export function itemActions(item: TItem, me: string | undefined): ItemActions {
  const isHolder = item.ownerId === me
  // Issue 26: while it is lent out its owner does not hand it over, edit or delete it (ADR 0047).
  const out = Boolean(item.lending?.loan)
  const handOver = item.hasPendingHandovers
    ? ({ allowed: 'view' } as const)
    : !isHolder
      ? refused('handOverNotHolder')
      : out
        ? refused('onLoan')
        : allowed
  let edit: ItemActionState
  if (item.locked) edit = refused('editLocked')
  else if (out && (isHolder || item.circle.adminId === me)) edit = refused('onLoan')
  else if (!isHolder && item.circle.adminId !== me) edit = refused('editNotAllowed')
  else if (item.hasPendingHandovers) edit = refused('editPending')
  else edit = allowed
  let remove: ItemActionState
  if (!isHolder) remove = refused('deleteNotHolder')
  else if (item.ownership !== 'COMPLETE') remove = refused('partialNote')
  else if (item.hasPendingHandovers) remove = refused('deletePending')
  else if (out) remove = refused('onLoan')
  else remove = allowed
  return { handOver, edit, delete: remove }
}
