import { TIMINGS } from '@circles/shared'
import { useTranslation } from 'react-i18next'
import { Toaster } from 'sonner'

/**
 * Toasts stay top-right (spec) but below the sticky banners and the 64 px header (h-16 and its 1 px
 * border), so they never cover the language switch, the avatar or Log out (issue 23). Sonner's own
 * side offsets are kept (24 px; 16 px under 600 px wide).
 */
const belowHeader = (gap: string) => `calc(var(--app-banners-height, 0px) + 4rem + 1px + ${gap})`
const TOAST_OFFSET = { top: belowHeader('0.75rem'), right: '24px', bottom: '24px', left: '24px' }
const TOAST_MOBILE_OFFSET = { top: belowHeader('0.5rem'), right: '16px', bottom: '16px', left: '16px' }

/** The app's Toaster: loaded with sonner on the first toast (lib/notify.ts, toaster-slot.tsx). */
export default function AppToaster() {
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
