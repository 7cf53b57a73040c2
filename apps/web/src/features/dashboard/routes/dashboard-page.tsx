import { CircleDashed, Plus } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { buttonClasses } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { useDocumentTitle } from '@/lib/use-document-title'
import { useSession } from '@/lib/use-session'

/** Placeholder until the dashboard issue: greets the user and shows where their circles will be. */
export function DashboardPage() {
  const { t } = useTranslation('dashboard')
  const { user } = useSession()
  useDocumentTitle(t('documentTitle'))

  return (
    <div className="flex flex-col gap-8">
      <div className="flex flex-col gap-2">
        <h1 className="text-xl font-semibold tracking-tight sm:text-2xl">
          {user?.name ? t('heading', { name: user.name }) : t('headingAnonymous')}
        </h1>
        <p className="text-fg-muted">{t('intro')}</p>
      </div>
      <Card className="flex flex-col items-center gap-3 border-dashed px-6 py-12 text-center shadow-none">
        <span className="inline-flex size-12 items-center justify-center rounded-full bg-accent-soft text-accent-text">
          <CircleDashed className="size-6" aria-hidden="true" />
        </span>
        <h2 className="font-semibold">{t('empty.title')}</h2>
        <p className="max-w-[48ch] text-sm text-fg-muted">{t('empty.body')}</p>
        <Link to="/circles/create" className={buttonClasses({ className: 'mt-3' })}>
          <Plus aria-hidden="true" />
          {t('empty.action')}
        </Link>
      </Card>
    </div>
  )
}
