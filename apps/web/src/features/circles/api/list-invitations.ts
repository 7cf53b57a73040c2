import { ZInvitationListResponse } from '@circles/shared'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { circleKeys } from './query-keys'

/**
 * Under the circle's key (['circles', id]), so invalidating the circle (what the invitation mutations
 * do, and what accepting an invitation does) refreshes its invitations too.
 */
export const invitationsQueryKey = (circleId: string) =>
  [...circleKeys.detail(circleId), 'invitations'] as const

/** GET /circles/:id/invitations (admin): the pending invitations. */
export const listInvitationsQueryOptions = (circleId: string) =>
  queryOptions({
    queryKey: invitationsQueryKey(circleId),
    queryFn: ({ signal }) =>
      api.get(`/circles/${encodeURIComponent(circleId)}/invitations`, ZInvitationListResponse, { signal }),
    select: (answer) => answer.invitations,
  })

export const useInvitations = (circleId: string) => useQuery(listInvitationsQueryOptions(circleId))
