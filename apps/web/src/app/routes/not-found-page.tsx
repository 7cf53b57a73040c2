import { ArrowLeft } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { NotFoundMessage } from '@/components/not-found-message'
import { buttonClasses } from '@/components/ui/button'
import { useDocumentTitle } from '@/lib/use-document-title'

/** Any unknown path (spec 000 §2), inside the app header and footer. */
export function NotFoundPage() {
  const { t } = useTranslation()
  useDocumentTitle(`${t('notFound.title')} · Circles`)

  return (
    <main id="main-content" className="flex flex-1 items-center justify-center px-6 py-16 sm:py-24">
      <NotFoundMessage
        title={t('notFound.title')}
        hint={t('notFound.hint')}
        action={
          <Link to="/" className={buttonClasses({ variant: 'primary', size: 'lg' })}>
            <ArrowLeft aria-hidden="true" className="rtl:rotate-180" />
            {t('actions.backHome')}
          </Link>
        }
      />
    </main>
  )
}
