import { ZMessageResponse, type TEmailRequest } from '@circles/shared'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'
import { api } from '@/lib/api-client'

/** POST /users/request-password-reset; answers the same whether the address has an account or not. */
export const requestPasswordReset = (body: TEmailRequest) =>
  api.post('/users/request-password-reset', body, ZMessageResponse)

export const useRequestPasswordReset = () => useGuardedMutation({ mutationFn: requestPasswordReset })
