import { ArrowLeft } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { buttonClasses } from '@/components/ui/button'
import { useDocumentTitle } from '@/lib/use-document-title'

/** The logo's two circles drifted apart: one is missing, like the page. */
function LostCircles() {
  return (
    <svg
      viewBox="0 0 96 48"
      fill="none"
      aria-hidden="true"
      focusable="false"
      className="h-12 w-24 text-accent"
    >
      <circle cx="26" cy="24" r="18" stroke="currentColor" strokeWidth="4" />
      <circle
        cx="70"
        cy="24"
        r="18"
        stroke="currentColor"
        strokeWidth="4"
        strokeOpacity="0.45"
        strokeDasharray="6 7"
        strokeLinecap="round"
      />
    </svg>
  )
}

/** Any unknown path (spec 000 §2), inside the app header and footer. */
export function NotFoundPage() {
  const { t } = useTranslation()
  useDocumentTitle(`${t('notFound.title')} · Circles`)

  return (
    <main id="main-content" className="flex flex-1 items-center justify-center px-6 py-16 sm:py-24">
      <div className="flex max-w-md flex-col items-center gap-4 text-center">
        <LostCircles />
        <p className="font-mono text-xs text-fg-subtle">{t('notFound.code')}</p>
        <div className="mb-2 flex flex-col gap-3">
          <h1 className="text-xl font-semibold tracking-tight sm:text-2xl">{t('notFound.title')}</h1>
          <p className="text-base text-balance text-fg">{t('notFound.message')}</p>
          <p className="text-sm text-fg-muted">{t('notFound.hint')}</p>
        </div>
        <Link to="/" className={buttonClasses({ variant: 'primary', size: 'lg' })}>
          <ArrowLeft aria-hidden="true" className="rtl:rotate-180" />
          {t('actions.backHome')}
        </Link>
      </div>
    </main>
  )
}
