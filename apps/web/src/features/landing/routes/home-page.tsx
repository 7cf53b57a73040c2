import { useTranslation } from 'react-i18next'
import { Hero } from '../components/hero'
import { HowItWorks } from '../components/how-it-works'
import { LandingFooter } from '../components/landing-footer'
import { LandingHeader } from '../components/landing-header'
import { useDocumentTitle } from '@/lib/use-document-title'

/** The landing page for visitors; pricing, features and FAQ come with the public-area issue. */
export function HomePage() {
  const { t } = useTranslation('landing')
  useDocumentTitle(t('documentTitle'))

  return (
    <div className="flex min-h-dvh flex-col">
      <LandingHeader />
      <main id="main-content" className="flex-1">
        <Hero />
        <HowItWorks />
      </main>
      <LandingFooter />
    </div>
  )
}
