import { ZChangePasswordRequest, ZChangePasswordResponse } from '@circles/shared'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { bearerToken, currentUser } from '../auth/auth.plugin'
import type { ChangePasswordService } from './change-password.service'

/** PUT /api/users/me/password (issue 24, docs/decisions/0039-change-password.md). */
export function changePasswordRoutes(service: ChangePasswordService) {
  return async (plain: FastifyInstance) => {
    const app = plain.withTypeProvider<ZodTypeProvider>()
    app.put(
      '/me/password',
      {
        onRequest: [app.authenticate],
        schema: {
          tags: ['users'],
          security: [{ bearer: [] }],
          body: ZChangePasswordRequest,
          response: { 200: ZChangePasswordResponse },
        },
      },
      (request) =>
        service.changePassword(currentUser(request), bearerToken(request), request.body, request.ip),
    )
  }
}
