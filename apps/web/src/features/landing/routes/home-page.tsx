import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { useChromeLabels } from '@/components/public/chrome-labels'
import { PublicFooter } from '@/components/public/public-footer'
import { useDocumentTitle } from '@/lib/use-document-title'
import { ClosingCta } from '../components/closing-cta'
import { Faq } from '../components/faq'
import { Features } from '../components/features'
import { Hero } from '../components/hero'
import { HowItWorks } from '../components/how-it-works'
import { LandingHeader, type AnchorLink } from '../components/landing-header'
import { Pricing } from '../components/pricing'
import { Problems } from '../components/problems'
import { enhanceLanding } from '../enhance'

/**
 * The landing page for visitors (spec 000 §1-2). Everything rendered here is presentational: in
 * production the page is prerendered to HTML and shipped without React, and enhance.ts alone makes it
 * interactive. In the SPA (development, client-side navigation) the same script runs from the effect.
 */
export function HomePage() {
  const { t, i18n } = useTranslation('landing')
  const labels = useChromeLabels('landing')
  useDocumentTitle(t('documentTitle'))
  useEffect(() => enhanceLanding(), [])

  const anchors: AnchorLink[] = [
    { href: '#how-it-works', label: t('nav.howItWorks') },
    { href: '#features', label: t('nav.features') },
    { href: '#pricing', label: t('nav.pricing') },
    { href: '#faq', label: t('nav.faq') },
  ]

  return (
    <div className="flex min-h-dvh flex-col">
      <LandingHeader labels={labels} anchors={anchors} language={i18n.resolvedLanguage ?? i18n.language} />
      <main id="main-content" tabIndex={-1} className="flex-1 focus:outline-none">
        <Hero />
        <Problems />
        <HowItWorks />
        <Features />
        <Pricing />
        <Faq />
        <ClosingCta />
      </main>
      <PublicFooter labels={labels} />
    </div>
  )
}
