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
    !item.hasPendingHandovers
  )
}

/**
 * Delete: only its holder with complete ownership, and not while a handover is pending (the server's
 * rule, docs/decisions/0015). The admin edits but does not delete what someone else holds.
 */
export function canDeleteItem(item: TItem, me: string | undefined): boolean {
  return item.ownerId === me && item.ownership === 'COMPLETE' && !item.hasPendingHandovers
}
