import { ZCalendarFeedResponse, ZCalendarTokenParams } from '@circles/shared'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { currentUser } from '../auth/auth.plugin'
import type { CalendarService } from './calendar.service'

/**
 * Issue 26: the personal calendar feed. Under /api: `/users/me/calendar` (show, make a new secret URL,
 * turn it off) for the signed-in person, and `/calendar/<token>.ics`, public to whoever has the URL.
 */
export function calendarRoutes(calendar: CalendarService) {
  return async (plain: FastifyInstance) => {
    const app = plain.withTypeProvider<ZodTypeProvider>()
    const tags = ['calendar']
    const secured = { onRequest: [app.authenticate], schema: { tags, security: [{ bearer: [] }] } }
    const response = { 200: ZCalendarFeedResponse }

    app.get('/users/me/calendar', { ...secured, schema: { ...secured.schema, response } }, (request) =>
      calendar.show(currentUser(request)),
    )
    app.post('/users/me/calendar', { ...secured, schema: { ...secured.schema, response } }, (request) =>
      calendar.renew(currentUser(request)),
    )
    app.delete('/users/me/calendar', { ...secured, schema: { ...secured.schema, response } }, (request) =>
      calendar.revoke(currentUser(request)),
    )

    app.get(
      '/calendar/:token',
      { schema: { tags, params: ZCalendarTokenParams } },
      async (request, reply) => {
        const body = await calendar.feed(request.params.token, request.ip)
        // Never kept by a cache: a turned-off or replaced URL must stop showing loans at once.
        return reply
          .header('content-type', 'text/calendar; charset=utf-8')
          .header('cache-control', 'no-store')
          .header('content-disposition', 'inline; filename="circles-loans.ics"')
          .send(body)
      },
    )
  }
}
