import { ZVerifyInvitationResponse } from '@circles/shared'
import { useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'

/**
 * GET /circles/invitations/:token/verify (public, spec 000 §5), for the sign-in pages: the circle and
 * who invited, named to a visitor who arrived from an invitation link (issue 23). Same cache key as
 * the join page's check, so coming from /join asks nothing again.
 */
export const useInvitationPreview = (token: string | null) =>
  useQuery({
    queryKey: ['invitations', 'verify', token ?? ''],
    queryFn: () =>
      api
        .get(`/circles/invitations/${encodeURIComponent(token ?? '')}/verify`, ZVerifyInvitationResponse, {
          skipLogoutOn401: true,
        })
        .then((answer) => answer.invitation),
    enabled: Boolean(token),
    retry: false,
    staleTime: 30_000,
    refetchOnWindowFocus: false,
  })
