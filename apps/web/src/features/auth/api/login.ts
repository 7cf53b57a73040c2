import { ZLoginResponse, type TLoginRequest } from '@circles/shared'
import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api-client'

/** POST /users/login. A 401 here is a wrong password or an unverified email, never a stale session. */
export const login = (body: TLoginRequest) =>
  api.post('/users/login', body, ZLoginResponse, { skipLogoutOn401: true })

export const useLogin = () => useMutation({ mutationFn: login })
