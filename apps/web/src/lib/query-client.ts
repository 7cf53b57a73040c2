import { QueryClient } from '@tanstack/react-query'
import { ApiError } from '@/lib/api-client'

const MAX_RETRIES = 2

/** A 4xx or an expired session will answer the same way again; network trouble and 5xx may not. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (
    error instanceof ApiError &&
    (error.code === 'TOKEN_EXPIRED' || (error.status >= 400 && error.status < 500))
  ) {
    return false
  }
  return failureCount < MAX_RETRIES
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, retry: shouldRetry },
      mutations: { retry: false },
    },
  })
}

export const queryClient = createQueryClient()
