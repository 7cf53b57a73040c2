import {
  ZPushKeyResponse,
  ZPushSubscribeRequest,
  ZPushSubscriptionResponse,
  ZPushUnsubscribeRequest,
} from '@circles/shared'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { currentUser } from '../auth/auth.plugin'
import type { PushService } from './push.service'

/**
 * Issue 27, Web Push (docs/decisions/0053), under /api/push: the VAPID public key (public), and this
 * device's subscription: on (POST, idempotent by endpoint), its state (POST …/status: the endpoint is a
 * capability URL, so it travels in a body, never a query string), off (DELETE). The switches per kind
 * are part of /api/users/me/notifications.
 */
export function pushRoutes(push: PushService) {
  return async (plain: FastifyInstance) => {
    const app = plain.withTypeProvider<ZodTypeProvider>()
    const tags = ['push']
    const secured = { onRequest: [app.authenticate], schema: { tags, security: [{ bearer: [] }] } }
    const response = { 200: ZPushSubscriptionResponse }

    app.get('/key', { schema: { tags, response: { 200: ZPushKeyResponse } } }, () => push.publicKey())
    app.post(
      '/subscriptions',
      { ...secured, schema: { ...secured.schema, body: ZPushSubscribeRequest, response } },
      (request) => push.subscribe(currentUser(request), request.body),
    )
    app.post(
      '/subscriptions/status',
      { ...secured, schema: { ...secured.schema, body: ZPushUnsubscribeRequest, response } },
      (request) => push.status(currentUser(request), request.body.endpoint),
    )
    app.delete(
      '/subscriptions',
      { ...secured, schema: { ...secured.schema, body: ZPushUnsubscribeRequest, response } },
      (request) => push.unsubscribe(currentUser(request), request.body.endpoint),
    )
  }
}
