import { QueryClientProvider } from '@tanstack/react-query'
import { useEffect, type ReactNode } from 'react'
import { notify } from '@/lib/notify'
import { queryClient } from '@/lib/query-client'
import { translateServerError } from '@/lib/server-errors'
import { onLogout } from '@/lib/session'
import { ToasterSlot } from './toaster-slot'

let watching = false

/**
 * What every logout does, wherever it came from (button, 401, expired token, another tab). Watched once
 * per page, from before the first request (main.tsx: a screen's first requests go out before React has
 * rendered, and a 401 among them ends the session).
 */
export function watchLogouts(): void {
  if (watching) return
  watching = true
  onLogout(({ reason }) => {
    // The next person on this browser must not see the previous user's cached data.
    queryClient.clear()
    if (reason) notify.warning(translateServerError(reason))
  })
}

/** i18n is initialised before the first render (see main.tsx), so only runtime providers live here. */
export function AppProviders({ children }: { children: ReactNode }) {
  useEffect(watchLogouts, [])
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <ToasterSlot />
    </QueryClientProvider>
  )
}
