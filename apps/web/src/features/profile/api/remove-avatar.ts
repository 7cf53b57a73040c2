import { ZAvatarResponse } from '@circles/shared'
import { useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { updateSessionUser } from '@/lib/session'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'

/** DELETE /users/me/avatar: initials again, in the header and the circles' members. */
export const useRemoveAvatar = () => {
  const queryClient = useQueryClient()
  return useGuardedMutation({
    mutationKey: ['profile', 'avatar'],
    mutationFn: () => api.delete('/users/me/avatar', ZAvatarResponse),
    onSuccess: ({ user }) => {
      updateSessionUser(user)
      void queryClient.invalidateQueries({ queryKey: ['circles'] })
    },
  })
}
