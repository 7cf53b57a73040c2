import { CircleCheck } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { buttonClasses } from '@/components/ui/button'
import { StatusCard } from '@/components/ui/status-card'
import { useDocumentTitle } from '@/lib/use-document-title'

/** /account-deleted (issue 24): where a person lands, signed out everywhere, after deleting the account. */
export function AccountDeletedPage() {
  const { t } = useTranslation('profile')
  useDocumentTitle(t('deleted.documentTitle'))
  return (
    <main id="main-content" className="mx-auto flex w-full max-w-lg flex-1 flex-col px-4 py-12 sm:px-6">
      <StatusCard
        title={t('deleted.title')}
        intro={t('deleted.intro')}
        icon={<CircleCheck aria-hidden="true" />}
        iconTone="success"
      >
        <Link to="/" className={buttonClasses({ variant: 'secondary' })}>
          {t('deleted.home')}
        </Link>
      </StatusCard>
    </main>
  )
}
