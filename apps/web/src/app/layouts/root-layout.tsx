import { Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import { Outlet, ScrollRestoration } from 'react-router'
import { PageLoader } from '@/components/page-loader'

/** Every page: skip link, scroll to top on navigation (spec 000 §2), a fallback while a page suspends. */
export function RootLayout() {
  const { t } = useTranslation()
  return (
    <>
      <a
        href="#main-content"
        className="sr-only z-50 rounded-md bg-surface px-4 py-2 text-sm font-medium text-fg shadow-md focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        {t('skipToContent')}
      </a>
      <ScrollRestoration />
      <Suspense fallback={<PageLoader />}>
        <Outlet />
      </Suspense>
    </>
  )
}
