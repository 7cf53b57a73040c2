import { TIMINGS } from '@circles/shared'
import { QueryClientProvider } from '@tanstack/react-query'
import { Suspense, useEffect, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Toaster } from 'sonner'
import { notify } from '@/lib/notify'
import { queryClient } from '@/lib/query-client'
import { translateServerError } from '@/lib/server-errors'
import { onLogout } from '@/lib/session'

/** What every logout does, wherever it came from (button, 401, expired token, another tab). */
function useLogoutEffects(): void {
  useEffect(
    () =>
      onLogout(({ reason }) => {
        // The next person on this browser must not see the previous user's cached data.
        queryClient.clear()
        if (reason) notify.warning(translateServerError(reason))
      }),
    [],
  )
}

function AppToaster() {
  const { t } = useTranslation()
  return (
    <Toaster
      position="top-right"
      duration={TIMINGS.toast.default}
      hotkey={['altKey', 'KeyT']}
      containerAriaLabel={t('notifications')}
      theme="system"
      richColors
      closeButton
    />
  )
}

/** i18n is initialised before the first render (see main.tsx), so only runtime providers live here. */
export function AppProviders({ children }: { children: ReactNode }) {
  useLogoutEffects()
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      {/* Its label is translated; if a language switch ever has to wait for strings, only the toaster waits. */}
      <Suspense fallback={null}>
        <AppToaster />
      </Suspense>
    </QueryClientProvider>
  )
}
