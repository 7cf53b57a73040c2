import { lazy, Suspense, useEffect, useState } from 'react'
import { SCAN_EVENT } from '@/lib/shell-events'

// The dialog, its words and its QR reader load only when someone first presses Scan.
const ScanDialog = lazy(() => import('./scan-dialog').then((m) => ({ default: m.ScanDialog })))

/**
 * Mounted once by the app's layout: opens the scan dialog when a Scan button (components/scan-button,
 * in the header, on the items list and the dashboard) asks for it.
 */
export function ScanHost() {
  const [open, setOpen] = useState(false)

  useEffect(() => {
    const onScan = () => setOpen(true)
    window.addEventListener(SCAN_EVENT, onScan)
    return () => window.removeEventListener(SCAN_EVENT, onScan)
  }, [])

  // Mounted for each opening (a fresh dialog, its camera stopped when it unmounts).
  if (!open) return null
  return (
    <Suspense fallback={null}>
      <ScanDialog open onClose={() => setOpen(false)} />
    </Suspense>
  )
}
