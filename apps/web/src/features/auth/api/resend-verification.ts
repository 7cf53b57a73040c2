import { ZMessageResponse, type TEmailRequest } from '@circles/shared'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'
import { api } from '@/lib/api-client'

/** POST /users/resend-verification; a 429 carries `retryAfter` in seconds. */
export const resendVerification = (body: TEmailRequest) =>
  api.post('/users/resend-verification', body, ZMessageResponse)

export const useResendVerification = () => useGuardedMutation({ mutationFn: resendVerification })
