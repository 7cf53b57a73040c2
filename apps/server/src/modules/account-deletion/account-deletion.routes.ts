import { MESSAGES, ZDeleteAccountRequest, ZDeletionPreviewResponse, ZMessageResponse } from '@circles/shared'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { currentUser } from '../auth/auth.plugin'
import type { AccountDeletionService } from './account-deletion.service'

/** Issue 24 (docs/decisions/0035): /api/users/me/deletion (what would happen) and /api/users/me/delete. */
export function accountDeletionRoutes(deletion: AccountDeletionService) {
  return async (plain: FastifyInstance) => {
    const app = plain.withTypeProvider<ZodTypeProvider>()
    const tags = ['users']
    const security = [{ bearer: [] }]
    const onRequest = [app.authenticate]

    app.get(
      '/me/deletion',
      { onRequest, schema: { tags, security, response: { 200: ZDeletionPreviewResponse } } },
      async (request) => ({ preview: await deletion.preview(currentUser(request)) }),
    )
    app.post(
      '/me/delete',
      {
        onRequest,
        schema: { tags, security, body: ZDeleteAccountRequest, response: { 200: ZMessageResponse } },
      },
      async (request) => {
        await deletion.deleteAccount(currentUser(request), request.body, request.ip)
        return { message: MESSAGES.accountDeleted }
      },
    )
  }
}
