import { useEffect, useMemo, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { mountInstallBanner, type InstallBannerStrings } from '@/pwa'

export function useInstallBannerStrings(): InstallBannerStrings {
  const { t } = useTranslation()
  return useMemo(
    () => ({
      title: t('install.title'),
      install: t('install.install'),
      dismiss: t('install.dismiss'),
      iosBody: t('install.iosBody'),
      iosSteps: [t('install.iosSteps.share'), t('install.iosSteps.add'), t('install.iosSteps.confirm')],
      manualBody: t('install.manualBody'),
    }),
    [t],
  )
}

/**
 * The install banner (lib/install-banner.ts) in the React app. It renders an empty box on the server
 * and in the first client render, and fills it from an effect, so prerendered pages hydrate cleanly.
 */
export function InstallBanner() {
  const strings = useInstallBannerStrings()
  const container = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (!container.current) return
    const banner = mountInstallBanner(container.current, strings)
    return () => banner.destroy()
  }, [strings])

  // Fixed at the top (spec 000 §2): it appears over the page instead of pushing it down (no layout shift).
  return <div ref={container} data-install-banner-host="" className="fixed inset-x-0 top-0 z-50" />
}
