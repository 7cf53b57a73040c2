import type { TDashboardStats } from '@circles/shared'
import { ArrowLeftRight, ChevronRight, type LucideIcon, Package, UsersRound } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Card, CardTitle } from '@/components/ui/card'

const ROWS: ReadonlyArray<{ key: keyof TDashboardStats; to: string; icon: LucideIcon }> = [
  { key: 'totalCircles', to: '/circles', icon: UsersRound },
  { key: 'pendingHandovers', to: '/items', icon: ArrowLeftRight },
  { key: 'ownedItems', to: '/items', icon: Package },
]

/** The three counts (spec 000 §2): '-' until they are known; each row links to its list. */
export function StatsCard({ stats }: { stats: TDashboardStats | undefined }) {
  const { t } = useTranslation('dashboard')
  return (
    <Card className="flex flex-col gap-2 p-5 sm:p-6">
      <CardTitle>{t('stats.title')}</CardTitle>
      <ul className="-mx-2 flex flex-col" aria-busy={stats ? undefined : true}>
        {ROWS.map(({ key, to, icon: Icon }) => (
          <li key={key}>
            <Link
              to={to}
              className="group flex items-center gap-3 rounded-md px-2 py-2.5 transition-colors duration-150 hover:bg-surface-2"
            >
              <Icon aria-hidden="true" className="size-4 shrink-0 text-fg-subtle" />
              <span className="flex-1 text-sm text-fg-muted group-hover:text-fg">{t(`stats.${key}`)}</span>
              <span className="text-lg font-semibold text-fg tabular-nums" data-testid={`stat-${key}`}>
                {stats ? stats[key] : '-'}
              </span>
              <ChevronRight aria-hidden="true" className="size-4 text-fg-subtle rtl:rotate-180" />
            </Link>
          </li>
        ))}
      </ul>
    </Card>
  )
}
