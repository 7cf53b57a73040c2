import { type LucideIcon, Package, Plus, ScanLine } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Card, CardTitle } from '@/components/ui/card'
import { requestScan } from '@/lib/shell-events'

const ACTION =
  'group flex w-full items-center gap-3 rounded-md border border-border px-3 py-2.5 text-start transition-[border-color,background-color] duration-150 hover:border-accent/40 hover:bg-surface-2'

const ACTIONS: ReadonlyArray<{ key: 'createCircle' | 'items'; to: string; icon: LucideIcon }> = [
  { key: 'createCircle', to: '/circles/create', icon: Plus },
  { key: 'items', to: '/items', icon: Package },
]

export function QuickActions() {
  const { t } = useTranslation('dashboard')
  return (
    <Card className="flex flex-col gap-3 p-5 sm:p-6">
      <CardTitle>{t('quickActions.title')}</CardTitle>
      <ul className="flex flex-col gap-2">
        {ACTIONS.map(({ key, to, icon: Icon }) => (
          <li key={key}>
            <Link to={to} className={ACTION}>
              <span className="inline-flex size-8 shrink-0 items-center justify-center rounded-md bg-accent-soft text-accent-text">
                <Icon aria-hidden="true" className="size-4" />
              </span>
              <span className="flex min-w-0 flex-col">
                <span className="text-sm font-medium text-fg group-hover:text-accent-text">
                  {t(`quickActions.${key}`)}
                </span>
                <span className="text-xs text-fg-muted">{t(`quickActions.${key}Hint`)}</span>
              </span>
            </Link>
          </li>
        ))}
        <li>
          {/* Issue 27: scan a label or an invitation (the dialog is the app layout's). */}
          <button type="button" className={ACTION} onClick={requestScan}>
            <span className="inline-flex size-8 shrink-0 items-center justify-center rounded-md bg-accent-soft text-accent-text">
              <ScanLine aria-hidden="true" className="size-4" />
            </span>
            <span className="flex min-w-0 flex-col">
              <span className="text-sm font-medium text-fg group-hover:text-accent-text">
                {t('quickActions.scan')}
              </span>
              <span className="text-xs text-fg-muted">{t('quickActions.scanHint')}</span>
            </span>
          </button>
        </li>
      </ul>
    </Card>
  )
}
