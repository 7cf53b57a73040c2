import { ZRegisterResponse, type TRegisterRequest } from '@circles/shared'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'
import { api } from '@/lib/api-client'

/** POST /users/register. `language` picks the language of the verification email. */
export const register = (body: TRegisterRequest) => api.post('/users/register', body, ZRegisterResponse)

export const useRegister = () => useGuardedMutation({ mutationFn: register })
