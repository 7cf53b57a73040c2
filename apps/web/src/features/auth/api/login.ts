import { ZLoginResponse, type TLoginRequest } from '@circles/shared'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'
import { api } from '@/lib/api-client'

/** POST /users/login. A 401 here is a wrong password or an unverified email, never a stale session. */
export const login = (body: TLoginRequest) =>
  api.post('/users/login', body, ZLoginResponse, { skipLogoutOn401: true })

export const useLogin = () => useGuardedMutation({ mutationFn: login })
