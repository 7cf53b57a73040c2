import { Suspense, useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { Outlet, useLocation } from 'react-router'
import { shellChrome } from '@/lib/shell-rules'
import { AppFooter } from '@/components/app-footer'
import { AppHeader } from '@/components/app-header'
import { InstallBanner } from '@/components/install-banner'
import { PageLoader } from '@/components/page-loader'
import { Staged } from '@/components/staged'
import { StagingBanner } from '@/components/staging-banner'
import { ScanHost } from '@/features/scan/components/scan-host'
import { trackPageView } from '@/lib/analytics'
import { trackBannersHeight } from '@/lib/banner-offset'
import { cn } from '@/lib/class-names'
import { useFooterVisible } from '@/lib/footer-preference'
import { ScrollRestoration } from '@/lib/scroll-restoration'
import { OfflineNotice } from '@/pwa/offline'

/** A page view per route change; analytics forwards it only with consent (spec 000 §4). */
function usePageViews(pathname: string): void {
  useEffect(() => trackPageView(pathname), [pathname])
}

/**
 * Every page: skip link, scroll to top on navigation (spec 000 §2), the staging and install banners at
 * the top, and the app header and footer where lib/shell-rules.ts says.
 * Safe to prerender: nothing here reads the browser while rendering, and the first render is a
 * visitor's with the banners hidden.
 */
export function RootLayout() {
  const { t } = useTranslation()
  const { pathname } = useLocation()
  const chrome = shellChrome(pathname, useFooterVisible())
  usePageViews(pathname)
  const banners = useRef<HTMLDivElement>(null)
  useEffect(() => (banners.current ? trackBannersHeight(banners.current) : undefined), [])

  return (
    <>
      <a
        href="#main-content"
        className="sr-only z-50 rounded-md bg-surface px-4 py-2 text-sm font-medium text-fg shadow-md focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        {t('skipToContent')}
      </a>
      <ScrollRestoration />
      <div className="flex min-h-dvh flex-col">
        {/*
          The banners and the app header stick together, so neither ever covers the other. Pages with a
          sticky header of their own place it at top-(--app-banners-height) (lib/banner-offset.ts).
        */}
        <div className="sticky top-0 z-30 print:hidden">
          <div ref={banners} data-shell-banners="">
            <StagingBanner />
            <InstallBanner />
            <OfflineNotice />
          </div>
          {chrome.header ? (
            <Staged hydrationOnly>
              <AppHeader />
            </Staged>
          ) : null}
        </div>
        {/*
          Each page renders its own <main id="main-content">. With the app footer, the page region is at
          least one screen tall: the footer starts below the fold, so a screen whose content arrives after
          its loading state does not push a visible footer down (layout shift; docs/decisions/0055).
        */}
        <div className={cn('flex flex-1 flex-col', chrome.footer && 'min-h-dvh print:min-h-0')}>
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </div>
        {chrome.footer ? (
          <Staged>
            <AppFooter />
          </Staged>
        ) : null}
      </div>
      {/* The Scan buttons' dialog (issue 27); its code loads when first asked for. */}
      <ScanHost />
    </>
  )
}
