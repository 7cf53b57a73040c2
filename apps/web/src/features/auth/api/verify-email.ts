import { MESSAGES, ZVerifyEmailResponse, type TVerifyEmailResponse } from '@circles/shared'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { ApiError, api } from '@/lib/api-client'
import { tempVerificationToken } from '@/lib/session'

/** Answers that mean the address is verified, whatever the status code (spec 000 §8). */
export function countsAsVerified(message: string | undefined): boolean {
  return Boolean(message && (/already verified/i.test(message) || message.includes(MESSAGES.emailVerified)))
}

/**
 * GET /users/verify/:token. A link opened a second time counts as success: either this browser already
 * verified it (the stored temp_verification_token, no request at all) or the server says so.
 */
export async function verifyEmail(token: string): Promise<TVerifyEmailResponse> {
  if (tempVerificationToken.get() === token) {
    return { verified: true, message: MESSAGES.emailAlreadyVerified }
  }
  try {
    const answer = await api.get(`/users/verify/${encodeURIComponent(token)}`, ZVerifyEmailResponse, {
      skipLogoutOn401: true,
    })
    if (answer.verified || countsAsVerified(answer.message)) {
      tempVerificationToken.set(token)
      return { verified: true, message: answer.message, email: answer.email }
    }
    return answer
  } catch (error) {
    if (error instanceof ApiError && countsAsVerified(error.message)) {
      tempVerificationToken.set(token)
      return { verified: true, message: error.message }
    }
    throw error
  }
}

/**
 * A query rather than an effect: React StrictMode mounts twice in development, and the query cache
 * makes both mounts share one request, so the link is used exactly once.
 */
export const verifyEmailQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['auth', 'verify-email', token],
    queryFn: () => verifyEmail(token),
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  })

export const useVerifyEmail = (token: string | null) =>
  useQuery({ ...verifyEmailQueryOptions(token ?? ''), enabled: Boolean(token) })
