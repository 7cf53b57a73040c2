import {
  MESSAGES,
  ZCreateHandoverRequest,
  ZHandoverAnswer,
  ZHandoverIdParams,
  ZHandoverListResponse,
  ZHandoverResponse,
  ZItemIdParams,
  ZMessageResponse,
} from '@circles/shared'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { currentUser } from '../auth/auth.plugin'
import type { HandoversService } from './handovers.service'

/** Spec 001 §7 "Handovers". */
export function handoversRoutes(handovers: HandoversService) {
  return async (plain: FastifyInstance) => {
    const app = plain.withTypeProvider<ZodTypeProvider>()
    const tags = ['handovers']
    const security = [{ bearer: [] }]
    const onRequest = [app.authenticate]

    app.get(
      '/',
      { onRequest, schema: { tags, security, response: { 200: ZHandoverListResponse } } },
      async (request) => ({ handovers: await handovers.listMine(currentUser(request)) }),
    )
    app.get(
      '/item/:id',
      {
        onRequest,
        schema: { tags, security, params: ZItemIdParams, response: { 200: ZHandoverListResponse } },
      },
      async (request) => ({
        handovers: await handovers.listForItem(currentUser(request), request.params.id),
      }),
    )
    app.post(
      '/',
      {
        onRequest,
        schema: { tags, security, body: ZCreateHandoverRequest, response: { 201: ZHandoverResponse } },
      },
      async (request, reply) => {
        const handover = await handovers.create(currentUser(request), request.body)
        return reply.status(201).send({ handover, message: MESSAGES.handoverCreated })
      },
    )
    app.put(
      '/:id/status',
      {
        onRequest,
        schema: {
          tags,
          security,
          params: ZHandoverIdParams,
          body: ZHandoverAnswer,
          response: { 200: ZHandoverResponse },
        },
      },
      async (request) => {
        const { handover, receipt } = await handovers.answer(
          currentUser(request),
          request.params.id,
          request.body,
        )
        const message =
          handover.status === 'CONFIRMED' ? MESSAGES.handoverConfirmed : MESSAGES.handoverRejected
        return { handover, message, receipt }
      },
    )
    app.delete(
      '/:id',
      {
        onRequest,
        schema: { tags, security, params: ZHandoverIdParams, response: { 200: ZMessageResponse } },
      },
      async (request) => {
        await handovers.cancel(currentUser(request), request.params.id)
        return { message: MESSAGES.handoverCancelled }
      },
    )
  }
}
