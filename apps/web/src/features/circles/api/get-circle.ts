import { ZCircleDetailResponse } from '@circles/shared'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod/mini'
import { api } from '@/lib/api-client'
import { circleKeys } from './query-keys'

/** GET /circles/:id: the circle with its members and items; 404 for a non-member or an unknown id. */
export const getCircle = (id: string, signal?: AbortSignal) =>
  api.get(`/circles/${encodeURIComponent(id)}`, ZCircleDetailResponse, { signal }).then((a) => a.circle)

export const getCircleQueryOptions = (id: string) =>
  queryOptions({ queryKey: circleKeys.detail(id), queryFn: ({ signal }) => getCircle(id, signal) })

const ZId = z.uuid()

/** Whether `id` can be a circle's (a uuid): for any other the page says "not found" without asking. */
export const isCircleId = (id: string) => ZId.safeParse(id).success

/** `enabled: false` for an id that cannot be a circle's (not a uuid): the page says "not found" itself. */
export const useCircle = (id: string, { enabled = true }: { enabled?: boolean } = {}) =>
  useQuery({ ...getCircleQueryOptions(id), enabled })
