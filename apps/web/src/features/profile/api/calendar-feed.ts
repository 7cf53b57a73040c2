import { ZCalendarFeedResponse } from '@circles/shared'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'

const calendarKey = ['profile', 'calendar'] as const

/** GET /users/me/calendar: the secret feed URL, or null (issue 26). */
export const useCalendarFeed = () =>
  useQuery({
    queryKey: calendarKey,
    queryFn: ({ signal }) =>
      api.get('/users/me/calendar', ZCalendarFeedResponse, { signal }).then((a) => a.url),
  })

/** POST makes a new URL (the old one stops working); DELETE turns the feed off. */
export const useChangeCalendarFeed = () => {
  const queryClient = useQueryClient()
  return useGuardedMutation({
    mutationFn: (action: 'renew' | 'revoke') =>
      action === 'renew'
        ? api.post('/users/me/calendar', undefined, ZCalendarFeedResponse)
        : api.delete('/users/me/calendar', ZCalendarFeedResponse),
    onSuccess: ({ url }) => queryClient.setQueryData(calendarKey, url),
  })
}
