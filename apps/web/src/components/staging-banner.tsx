import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { mountStagingBanner } from '@/lib/staging-banner'

/**
 * The staging strip (lib/staging-banner.ts) in the React app. The runtime config is read in the effect,
 * never while rendering: the server render does not know it, and hydration must match that.
 */
export function StagingBanner() {
  const { t } = useTranslation()
  const container = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (!container.current) return
    const banner = mountStagingBanner(container.current, {
      label: t('staging.label'),
      message: t('staging.message'),
    })
    return () => banner.destroy()
  }, [t])

  return <div ref={container} data-staging-banner-host="" />
}
