import type { QueryClient } from '@tanstack/react-query'
import { afterNextPaint } from '@/lib/after-paint'
import { within } from '@/lib/within'

let committed: () => void
const firstCommit = new Promise<void>((resolve) => {
  committed = resolve
})

/** Called by the routes once their first screen is in the document (AppRoutes' first effect). */
export function firstScreenCommitted(): void {
  committed()
}

/** The most the shell's services wait for the first screen's answers. */
const DATA_WAIT_MS = 3000

/**
 * Resolves once the first screen has painted and its first answers have arrived (at most a few seconds
 * later): the shell's services (real time, the time zone report) start then, not in the first screen's
 * way on a slow phone (issue 27, docs/decisions/0056).
 */
export async function firstScreenSettled(queryClient: QueryClient): Promise<void> {
  await firstCommit
  await afterNextPaint()
  await within(idle(queryClient), DATA_WAIT_MS)
}

/** Resolves when no query is fetching. */
function idle(queryClient: QueryClient): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (queryClient.isFetching() > 0) return
      unsubscribe()
      resolve()
    }
    const unsubscribe = queryClient.getQueryCache().subscribe(check)
    check()
  })
}
