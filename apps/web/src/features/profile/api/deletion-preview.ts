import { ZDeletionPreviewResponse } from '@circles/shared'
import { useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'

export const deletionPreviewKey = ['profile', 'deletion-preview'] as const

/** GET /users/me/deletion: what deleting the account would do now (issue 24). */
export const useDeletionPreview = (enabled = true) =>
  useQuery({
    enabled,
    queryKey: deletionPreviewKey,
    queryFn: ({ signal }) =>
      api.get('/users/me/deletion', ZDeletionPreviewResponse, { signal }).then((a) => a.preview),
  })
