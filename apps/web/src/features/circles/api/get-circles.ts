import { ZCircleListResponse } from '@circles/shared'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { circleKeys } from './query-keys'

/** GET /circles: one entry per membership, newest first as the server sorts them. */
export const getCircles = (signal?: AbortSignal) =>
  api.get('/circles', ZCircleListResponse, { signal }).then((answer) => answer.circles)

export const getCirclesQueryOptions = () =>
  queryOptions({ queryKey: circleKeys.all, queryFn: ({ signal }) => getCircles(signal) })

export const useCircles = () => useQuery(getCirclesQueryOptions())
