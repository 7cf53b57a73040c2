import {
  ZBlockCircleParams,
  ZBlockIdParams,
  ZBlockItemParams,
  ZBlockListResponse,
  ZBlockResponse,
  ZVerificationResult,
} from '@circles/shared'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { currentUser } from '../auth/auth.plugin'
import type { LedgerService } from './ledger.service'

/** Spec 001 §7 "Ledger": members read and verify their circles' chains. */
export function ledgerRoutes(ledger: LedgerService) {
  return async (plain: FastifyInstance) => {
    const app = plain.withTypeProvider<ZodTypeProvider>()
    const tags = ['ledger']
    const security = [{ bearer: [] }]
    const onRequest = [app.authenticate]
    const listed = { tags, security, response: { 200: ZBlockListResponse } }

    app.get('/', { onRequest, schema: listed }, async (request) => ({
      blocks: await ledger.list(currentUser(request)),
    }))
    app.get(
      '/verify/:circleId',
      {
        onRequest,
        schema: { tags, security, params: ZBlockCircleParams, response: { 200: ZVerificationResult } },
      },
      async (request) => ledger.verify(currentUser(request), request.params.circleId),
    )
    app.get(
      '/item/:itemId',
      { onRequest, schema: { ...listed, params: ZBlockItemParams } },
      async (request) => ({
        blocks: await ledger.listItem(currentUser(request), request.params.itemId),
      }),
    )
    app.get(
      '/circle/:circleId',
      { onRequest, schema: { ...listed, params: ZBlockCircleParams } },
      async (request) => ({ blocks: await ledger.listCircle(currentUser(request), request.params.circleId) }),
    )
    app.get(
      '/:id',
      { onRequest, schema: { tags, security, params: ZBlockIdParams, response: { 200: ZBlockResponse } } },
      async (request) => ({ block: await ledger.get(currentUser(request), request.params.id) }),
    )
  }
}
