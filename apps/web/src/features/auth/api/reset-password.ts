import { ZMessageResponse } from '@circles/shared'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'
import { api } from '@/lib/api-client'

export interface ResetPasswordBody {
  token: string
  newPassword: string
  confirmPassword: string
}

/** POST /users/reset-password. Single use; ends every earlier session of the account. */
export const resetPassword = (body: ResetPasswordBody) =>
  api.post('/users/reset-password', body, ZMessageResponse, { skipLogoutOn401: true })

export const useResetPassword = () => useGuardedMutation({ mutationFn: resetPassword })
