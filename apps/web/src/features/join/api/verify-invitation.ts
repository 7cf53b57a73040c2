import { ZVerifyInvitationResponse } from '@circles/shared'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'

/** GET /circles/invitations/:token/verify (no sign-in needed): what the invitee sees before accepting. */
export const verifyInvitation = (token: string) =>
  api
    .get(`/circles/invitations/${encodeURIComponent(token)}/verify`, ZVerifyInvitationResponse, {
      // A visitor's stale session must not end here: the page sends visitors to /login anyway.
      skipLogoutOn401: true,
    })
    .then((answer) => answer.invitation)

/**
 * A query, so StrictMode's double mount and the visitor → signed-in switch share one request (no abort
 * signal: an aborted first mount would ask twice).
 */
export const verifyInvitationQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['invitations', 'verify', token],
    queryFn: () => verifyInvitation(token),
    retry: false,
    staleTime: 30_000,
    refetchOnWindowFocus: false,
  })

export const useVerifyInvitation = (token: string | null) =>
  useQuery({ ...verifyInvitationQueryOptions(token ?? ''), enabled: Boolean(token) })
