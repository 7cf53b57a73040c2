import { LogOut, UserMinus } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { buttonClasses } from '@/components/ui/button'
import type { Departure } from '@/lib/no-longer-member'

/**
 * What a former member sees instead of a circle's page, its ledger or one of its blocks: a calm
 * notice that they were removed (or left), what that means, and where to go (docs/decisions/0027).
 */
export function NoLongerMemberNotice({ departure }: { departure: Departure }) {
  const { t } = useTranslation('common')
  const removed = departure.reason === 'REMOVED'
  const Icon = removed ? UserMinus : LogOut
  return (
    <section
      role="status"
      aria-labelledby="no-longer-member-title"
      className="flex flex-col items-center gap-4 rounded-lg border border-border bg-surface px-6 py-12 text-center shadow-sm"
    >
      <span className="inline-flex size-12 items-center justify-center rounded-full bg-surface-2 text-fg-muted">
        <Icon aria-hidden="true" className="size-6" />
      </span>
      <div className="flex flex-col gap-2">
        <h1 id="no-longer-member-title" className="text-xl font-semibold tracking-tight">
          {t(removed ? 'noLongerMember.removedTitle' : 'noLongerMember.leftTitle', {
            circle: departure.circle.name,
          })}
        </h1>
        <p className="max-w-[52ch] text-sm text-fg-muted">
          {t(removed ? 'noLongerMember.removedBody' : 'noLongerMember.leftBody')}
        </p>
      </div>
      <div className="flex flex-wrap justify-center gap-2">
        <Link to="/items" className={buttonClasses({ variant: 'secondary' })}>
          {t('noLongerMember.toItems')}
        </Link>
        <Link to="/dashboard" className={buttonClasses({ variant: 'secondary' })}>
          {t('noLongerMember.toDashboard')}
        </Link>
      </div>
    </section>
  )
}
