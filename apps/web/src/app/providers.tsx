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

/**
 * Toasts stay top-right (spec) but below the sticky banners and the 64 px header (h-16 and its 1 px
 * border), so they never cover the language switch, the avatar or Log out (issue 23). Sonner's own
 * side offsets are kept (24 px; 16 px under 600 px wide).
 */
const belowHeader = (gap: string) => `calc(var(--app-banners-height, 0px) + 4rem + 1px + ${gap})`
const TOAST_OFFSET = { top: belowHeader('0.75rem'), right: '24px', bottom: '24px', left: '24px' }
const TOAST_MOBILE_OFFSET = { top: belowHeader('0.5rem'), right: '16px', bottom: '16px', left: '16px' }

function AppToaster() {
  const { t } = useTranslation()
  return (
    <Toaster
      position="top-right"
      offset={TOAST_OFFSET}
      mobileOffset={TOAST_MOBILE_OFFSET}
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
