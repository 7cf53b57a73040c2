import {
  MESSAGES,
  ZAnswerBorrowRequest,
  ZBorrowRequestIdParams,
  ZBorrowRequestListQuery,
  ZBorrowRequestListResponse,
  ZBorrowRequestResponse,
  ZCreateBorrowRequest,
  ZItemIdParams,
} from '@circles/shared'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { currentUser } from '../auth/auth.plugin'
import type { BorrowRequestsService } from './borrow-requests.service'

/** Asks to borrow and the waiting list (issue 26, docs/decisions/0047 and 0048), under `/api`. */
export function borrowRequestsRoutes(borrowRequests: BorrowRequestsService) {
  return async (plain: FastifyInstance) => {
    const app = plain.withTypeProvider<ZodTypeProvider>()
    const tags = ['borrow-requests']
    const security = [{ bearer: [] }]
    const onRequest = [app.authenticate]

    app.post(
      '/items/:id/borrow-requests',
      {
        onRequest,
        schema: {
          tags,
          security,
          params: ZItemIdParams,
          body: ZCreateBorrowRequest,
          response: { 201: ZBorrowRequestResponse },
        },
      },
      async (request, reply) => {
        const borrowRequest = await borrowRequests.create(
          currentUser(request),
          request.params.id,
          request.body,
        )
        return reply.status(201).send({ borrowRequest, message: MESSAGES.borrowRequestCreated })
      },
    )
    app.get(
      '/items/:id/borrow-requests',
      {
        onRequest,
        schema: { tags, security, params: ZItemIdParams, response: { 200: ZBorrowRequestListResponse } },
      },
      async (request) => ({
        borrowRequests: await borrowRequests.listForItem(currentUser(request), request.params.id),
      }),
    )
    app.get(
      '/borrow-requests',
      {
        onRequest,
        schema: {
          tags,
          security,
          querystring: ZBorrowRequestListQuery,
          response: { 200: ZBorrowRequestListResponse },
        },
      },
      async (request) => ({
        borrowRequests: await borrowRequests.list(currentUser(request), request.query),
      }),
    )
    app.put(
      '/borrow-requests/:id',
      {
        onRequest,
        schema: {
          tags,
          security,
          params: ZBorrowRequestIdParams,
          body: ZAnswerBorrowRequest,
          response: { 200: ZBorrowRequestResponse },
        },
      },
      async (request) => {
        const borrowRequest = await borrowRequests.answer(
          currentUser(request),
          request.params.id,
          request.body,
        )
        const message =
          borrowRequest.status === 'DECLINED'
            ? MESSAGES.borrowRequestDeclined
            : MESSAGES.borrowRequestAccepted
        return { borrowRequest, message }
      },
    )
    app.delete(
      '/borrow-requests/:id',
      {
        onRequest,
        schema: { tags, security, params: ZBorrowRequestIdParams, response: { 200: ZBorrowRequestResponse } },
      },
      async (request) => {
        const borrowRequest = await borrowRequests.withdraw(currentUser(request), request.params.id)
        return { borrowRequest, message: MESSAGES.borrowRequestWithdrawn }
      },
    )
  }
}
