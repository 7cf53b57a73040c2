import { ZCircleListResponse, ZDashboardStats, ZRecentActivitiesResponse } from '@circles/shared'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { RECENT_ACTIVITIES_KEY } from '@/lib/realtime/keys'

/** Every dashboard query sits under ['dashboard']: real-time events refetch them together. */
export const dashboardKeys = {
  activities: RECENT_ACTIVITIES_KEY,
  stats: ['dashboard', 'stats'] as const,
  circles: ['dashboard', 'circles'] as const,
}

/** GET /activities/recent: newest first; live entries are put in front by lib/realtime. */
export const recentActivitiesQuery = () =>
  queryOptions({
    queryKey: dashboardKeys.activities,
    queryFn: ({ signal }) =>
      api.get('/activities/recent', ZRecentActivitiesResponse, { signal }).then((a) => a.activities),
  })
export const useRecentActivities = () => useQuery(recentActivitiesQuery())

/** GET /dashboard/stats: totalCircles, pendingHandovers, ownedItems. */
export const dashboardStatsQuery = () =>
  queryOptions({
    queryKey: dashboardKeys.stats,
    queryFn: ({ signal }) => api.get('/dashboard/stats', ZDashboardStats, { signal }),
  })
export const useDashboardStats = () => useQuery(dashboardStatsQuery())

/** GET /circles: the dashboard shows the first LIMITS.dashboardCircles. */
export const dashboardCirclesQuery = () =>
  queryOptions({
    queryKey: dashboardKeys.circles,
    queryFn: ({ signal }) => api.get('/circles', ZCircleListResponse, { signal }).then((a) => a.circles),
  })
export const useDashboardCircles = () => useQuery(dashboardCirclesQuery())
