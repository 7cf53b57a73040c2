import { ZVerifyResetTokenResponse } from '@circles/shared'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'

/** GET /users/verify-reset-token/:token: succeeds only for an unused, unexpired reset link. */
export const verifyResetToken = (token: string) =>
  api.get(`/users/verify-reset-token/${encodeURIComponent(token)}`, ZVerifyResetTokenResponse, {
    skipLogoutOn401: true,
  })

export const verifyResetTokenQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['auth', 'reset-token', token],
    queryFn: () => verifyResetToken(token),
    // Checked once per visit: coming back to the tab must not swap a filled-in form for a spinner.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  })

/** Disabled without a token: the page then shows the invalid-link state at once. */
export const useVerifyResetToken = (token: string | null) =>
  useQuery({ ...verifyResetTokenQueryOptions(token ?? ''), enabled: Boolean(token) })
