import type { Query } from '@tanstack/react-query'

/**
 * The react-query keys of circles. Every circle query starts with `['circles']`, so invalidating
 * `circleKeys.all` refreshes the list and every open circle; `circleKeys.detail(id)` only that circle
 * (what the invitations panel does after an invitation is accepted, resent or cancelled).
 */
export const circleKeys = {
  all: ['circles'] as const,
  detail: (id: string) => ['circles', id] as const,
}

/**
 * The list and the circles themselves, not what hangs below a circle (its admin-only invitations):
 * after a change of admin those would refetch into a 403 while the admin view is still on screen.
 */
export const isCircleDataQuery = (query: Query) => query.queryKey.length <= 2
