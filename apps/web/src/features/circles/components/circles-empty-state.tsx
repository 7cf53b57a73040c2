import { Plus, UsersRound } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { buttonClasses } from '@/components/ui/button'
import { Card } from '@/components/ui/card'

/** No circles yet: what a circle is, and the button to make the first one. */
export function CirclesEmptyState() {
  const { t } = useTranslation('circles')
  return (
    <Card className="flex flex-col items-center gap-4 border-dashed px-6 py-12 text-center shadow-none sm:py-16">
      <span className="inline-flex size-12 items-center justify-center rounded-full bg-accent-soft text-accent-text">
        <UsersRound aria-hidden="true" className="size-6" />
      </span>
      <div className="flex flex-col items-center gap-2">
        <h2 className="text-lg font-semibold tracking-tight">{t('list.empty.title')}</h2>
        <p className="max-w-[52ch] text-sm text-fg-muted">{t('list.empty.body')}</p>
      </div>
      <Link to="/circles/create" className={buttonClasses({ className: 'mt-2' })}>
        <Plus aria-hidden="true" />
        {t('list.empty.action')}
      </Link>
    </Card>
  )
}
