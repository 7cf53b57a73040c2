import {
  ZAnswerExtension,
  ZChangeDueAt,
  ZLoanExtensionParams,
  ZLoanExtensionResponse,
  ZLoanIdParams,
  ZLoanListQuery,
  ZLoanListResponse,
  ZLoanResponse,
  ZMessageResponse,
  ZRequestExtension,
  ZStartReturn,
} from '@circles/shared'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { currentUser } from '../auth/auth.plugin'
import type { LoansService } from './loans.service'

/** Lending (issue 26, docs/decisions/0047): `/api/loans`. A loan starts with POST /api/handovers (LOAN). */
export function loansRoutes(loans: LoansService) {
  return async (plain: FastifyInstance) => {
    const app = plain.withTypeProvider<ZodTypeProvider>()
    const tags = ['loans']
    const security = [{ bearer: [] }]
    const onRequest = [app.authenticate]

    app.get(
      '/',
      {
        onRequest,
        schema: { tags, security, querystring: ZLoanListQuery, response: { 200: ZLoanListResponse } },
      },
      async (request) => ({ loans: await loans.list(currentUser(request), request.query) }),
    )
    app.get(
      '/:id',
      { onRequest, schema: { tags, security, params: ZLoanIdParams, response: { 200: ZLoanResponse } } },
      async (request) => ({ loan: await loans.get(currentUser(request), request.params.id) }),
    )
    app.patch(
      '/:id',
      {
        onRequest,
        schema: {
          tags,
          security,
          params: ZLoanIdParams,
          body: ZChangeDueAt,
          response: { 200: ZLoanResponse },
        },
      },
      async (request) => loans.changeDueAt(currentUser(request), request.params.id, request.body),
    )
    app.post(
      '/:id/return',
      {
        onRequest,
        schema: {
          tags,
          security,
          params: ZLoanIdParams,
          body: ZStartReturn,
          response: { 200: ZLoanResponse },
        },
      },
      async (request) => loans.startReturn(currentUser(request), request.params.id, request.body),
    )
    app.post(
      '/:id/extensions',
      {
        onRequest,
        schema: {
          tags,
          security,
          params: ZLoanIdParams,
          body: ZRequestExtension,
          response: { 201: ZLoanExtensionResponse },
        },
      },
      async (request, reply) => {
        const answer = await loans.requestExtension(currentUser(request), request.params.id, request.body)
        return reply.status(201).send(answer)
      },
    )
    app.put(
      '/:id/extensions/:extensionId',
      {
        onRequest,
        schema: {
          tags,
          security,
          params: ZLoanExtensionParams,
          body: ZAnswerExtension,
          response: { 200: ZLoanExtensionResponse },
        },
      },
      async (request) =>
        loans.answerExtension(
          currentUser(request),
          request.params.id,
          request.params.extensionId,
          request.body,
        ),
    )
    app.delete(
      '/:id/extensions/:extensionId',
      {
        onRequest,
        schema: { tags, security, params: ZLoanExtensionParams, response: { 200: ZMessageResponse } },
      },
      async (request) =>
        loans.withdrawExtension(currentUser(request), request.params.id, request.params.extensionId),
    )
  }
}
