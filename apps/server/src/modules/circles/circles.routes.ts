import {
  ZAcceptInvitationResponse,
  ZCircleDetailResponse,
  ZCircleForm,
  ZCircleIdParams,
  ZCircleInvitationParams,
  ZCircleListResponse,
  ZCircleMemberParams,
  ZCircleResponse,
  ZInvitationListResponse,
  ZInvitationResponse,
  ZInvitationTokenParams,
  ZInviteRequest,
  ZMessageResponse,
  ZQrInvitationResponse,
  ZTransferOwnershipRequest,
  ZVerifyInvitationResponse,
  MESSAGES,
} from '@circles/shared'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { currentUser } from '../auth/auth.plugin'
import type { CirclesService } from './circles.service'
import type { InvitationsService } from './invitations.service'

/** Spec 001 §7 "Circles and invitations", plus transfer of ownership and leaving (docs/decisions/0009). */
export function circlesRoutes(circles: CirclesService, invitations: InvitationsService) {
  return async (plain: FastifyInstance) => {
    const app = plain.withTypeProvider<ZodTypeProvider>()
    const tags = ['circles']
    const security = [{ bearer: [] }]
    const onRequest = [app.authenticate]

    app.get(
      '/',
      { onRequest, schema: { tags, security, response: { 200: ZCircleListResponse } } },
      async (request) => ({ circles: await circles.list(currentUser(request)) }),
    )

    app.post(
      '/',
      { onRequest, schema: { tags, security, body: ZCircleForm, response: { 201: ZCircleResponse } } },
      async (request, reply) => {
        const circle = await circles.create(currentUser(request), request.body)
        return reply.status(201).send({ circle, message: MESSAGES.circleCreated })
      },
    )

    // Static segments before :id, so /invitations/… never reads as a circle id.
    app.get(
      '/invitations/:token/verify',
      { schema: { tags, params: ZInvitationTokenParams, response: { 200: ZVerifyInvitationResponse } } },
      async (request) => ({ invitation: await invitations.verify(request.params.token) }),
    )

    app.post(
      '/invitations/:token',
      {
        onRequest,
        schema: {
          tags,
          security,
          params: ZInvitationTokenParams,
          response: { 200: ZAcceptInvitationResponse },
        },
      },
      (request) => invitations.accept(currentUser(request), request.params.token),
    )

    app.get(
      '/:id',
      {
        onRequest,
        schema: { tags, security, params: ZCircleIdParams, response: { 200: ZCircleDetailResponse } },
      },
      async (request) => ({ circle: await circles.get(currentUser(request), request.params.id) }),
    )

    app.put(
      '/:id',
      {
        onRequest,
        schema: {
          tags,
          security,
          params: ZCircleIdParams,
          body: ZCircleForm,
          response: { 200: ZCircleResponse },
        },
      },
      async (request) => ({
        circle: await circles.update(currentUser(request), request.params.id, request.body),
        message: MESSAGES.circleUpdated,
      }),
    )

    app.post(
      '/:id/users',
      {
        onRequest,
        schema: {
          tags,
          security,
          params: ZCircleIdParams,
          body: ZInviteRequest,
          response: { 201: ZInvitationResponse },
        },
      },
      async (request, reply) => {
        const invitation = await invitations.inviteByEmail(
          currentUser(request),
          request.params.id,
          request.body.email,
        )
        return reply.status(201).send({ invitation, message: MESSAGES.invitationSent })
      },
    )

    app.delete(
      '/:id/users/:userId',
      {
        onRequest,
        schema: { tags, security, params: ZCircleMemberParams, response: { 200: ZMessageResponse } },
      },
      async (request) => {
        await circles.removeMember(currentUser(request), request.params.id, request.params.userId)
        return { message: MESSAGES.memberRemoved }
      },
    )

    app.post(
      '/:id/transfer',
      {
        onRequest,
        schema: {
          tags,
          security,
          params: ZCircleIdParams,
          body: ZTransferOwnershipRequest,
          response: { 200: ZCircleResponse },
        },
      },
      async (request) => ({
        circle: await circles.transferOwnership(currentUser(request), request.params.id, request.body.userId),
        message: MESSAGES.ownershipTransferred,
      }),
    )

    app.post(
      '/:id/leave',
      { onRequest, schema: { tags, security, params: ZCircleIdParams, response: { 200: ZMessageResponse } } },
      async (request) => {
        await circles.leave(currentUser(request), request.params.id)
        return { message: MESSAGES.leftCircle }
      },
    )

    app.post(
      '/:id/invitations/qr',
      {
        onRequest,
        schema: {
          tags,
          security,
          params: ZCircleIdParams,
          body: ZInviteRequest,
          response: { 201: ZQrInvitationResponse },
        },
      },
      async (request, reply) => {
        const invitation = await invitations.createQrInvitation(
          currentUser(request),
          request.params.id,
          request.body.email,
        )
        return reply.status(201).send({ invitation, message: MESSAGES.qrGenerated })
      },
    )

    app.get(
      '/:id/invitations',
      {
        onRequest,
        schema: { tags, security, params: ZCircleIdParams, response: { 200: ZInvitationListResponse } },
      },
      async (request) => ({
        invitations: await invitations.listPending(currentUser(request), request.params.id),
      }),
    )

    app.post(
      '/:id/invitations/:invId/resend',
      {
        onRequest,
        schema: { tags, security, params: ZCircleInvitationParams, response: { 200: ZInvitationResponse } },
      },
      async (request) => ({
        invitation: await invitations.resend(currentUser(request), request.params.id, request.params.invId),
        message: MESSAGES.invitationResent,
      }),
    )

    app.delete(
      '/:id/invitations/:invId',
      {
        onRequest,
        schema: { tags, security, params: ZCircleInvitationParams, response: { 200: ZMessageResponse } },
      },
      async (request) => {
        await invitations.cancel(currentUser(request), request.params.id, request.params.invId)
        return { message: MESSAGES.invitationCancelled }
      },
    )
  }
}
