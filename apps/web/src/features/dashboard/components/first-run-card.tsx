import { ArrowLeftRight, Package, Plus, type LucideIcon, UsersRound } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { buttonClasses } from '@/components/ui/button'
import { Card } from '@/components/ui/card'

const STEPS: ReadonlyArray<{ key: 'circle' | 'items' | 'handover'; icon: LucideIcon }> = [
  { key: 'circle', icon: UsersRound },
  { key: 'items', icon: Package },
  { key: 'handover', icon: ArrowLeftRight },
]

/** For someone in no circle yet: what a circle is, the three steps, and the one button to start. */
export function FirstRunCard() {
  const { t } = useTranslation('dashboard')
  return (
    <Card className="flex flex-col gap-5 p-5 sm:p-6">
      <div className="flex flex-col gap-2">
        <h2 className="text-lg font-semibold tracking-tight">{t('firstRun.title')}</h2>
        <p className="max-w-[60ch] text-sm text-fg-muted">{t('firstRun.body')}</p>
      </div>
      <ol className="flex flex-col gap-2">
        {STEPS.map(({ key, icon: Icon }, index) => (
          <li
            key={key}
            className="flex items-center gap-3 rounded-md border border-border bg-surface-2 px-3 py-2.5 text-sm text-fg"
          >
            <span className="inline-flex size-6 shrink-0 items-center justify-center rounded-full bg-accent-soft text-xs font-semibold text-accent-text">
              {index + 1}
            </span>
            <Icon className="size-4 shrink-0 text-accent-text" aria-hidden="true" />
            {t(`firstRun.steps.${key}`)}
          </li>
        ))}
      </ol>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <Link to="/circles/create" className={buttonClasses({ className: 'self-start' })}>
          <Plus aria-hidden="true" />
          {t('firstRun.create')}
        </Link>
        <p className="text-sm text-fg-muted">{t('firstRun.invited')}</p>
      </div>
    </Card>
  )
}
