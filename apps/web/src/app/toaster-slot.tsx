import { lazy, Suspense, useSyncExternalStore } from 'react'
import { subscribeToasterWanted, toasterWanted } from '@/lib/notify'

const AppToaster = lazy(() => import('./toaster'))

/**
 * Where the Toaster goes: nothing until the first toast is asked for (sonner is not part of a screen's
 * first load), then the Toaster, which shows that toast (sonner replays toasts made before it mounted).
 */
export function ToasterSlot() {
  const wanted = useSyncExternalStore(subscribeToasterWanted, toasterWanted, () => false)
  if (!wanted) return null
  return (
    // Its label is translated; if a language switch ever has to wait for strings, only the toaster waits.
    <Suspense fallback={null}>
      <AppToaster />
    </Suspense>
  )
}
