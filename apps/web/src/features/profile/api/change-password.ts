import { type TChangePasswordForm, ZChangePasswordResponse } from '@circles/shared'
import { api } from '@/lib/api-client'
import { getSession, startSession } from '@/lib/session'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'

/**
 * PUT /users/me/password (docs/decisions/0039). Every other session ends; this one goes on with the
 * answer's token, stored before anything else runs, so the socket reconnects with it.
 */
export const useChangePassword = () =>
  useGuardedMutation({
    mutationFn: (body: TChangePasswordForm) => api.put('/users/me/password', body, ZChangePasswordResponse),
    onSuccess: ({ token }) => {
      const { user } = getSession()
      if (user) startSession(token, user)
    },
  })
