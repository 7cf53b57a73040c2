import { ZDashboardStats, ZRecentActivitiesResponse } from '@circles/shared'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { currentUser } from '../auth/auth.plugin'
import type { ActivitiesService } from './activities.service'

/** Spec 000 §7: the dashboard's two calls. Each is answered with one query. */
export function activitiesRoutes(activities: ActivitiesService) {
  return async (plain: FastifyInstance) => {
    const app = plain.withTypeProvider<ZodTypeProvider>()
    const tags = ['dashboard']
    const security = [{ bearer: [] }]
    const onRequest = [app.authenticate]

    app.get(
      '/activities/recent',
      { onRequest, schema: { tags, security, response: { 200: ZRecentActivitiesResponse } } },
      async (request) => ({ activities: await activities.recent(currentUser(request)) }),
    )
    app.get(
      '/dashboard/stats',
      { onRequest, schema: { tags, security, response: { 200: ZDashboardStats } } },
      async (request) => activities.stats(currentUser(request)),
    )
  }
}
