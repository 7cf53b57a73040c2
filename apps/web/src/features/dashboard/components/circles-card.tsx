import { LIMITS, type TCircleListEntry } from '@circles/shared'
import { ChevronRight, ShieldCheck } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Badge } from '@/components/ui/badge'
import { Card, CardTitle } from '@/components/ui/card'

/** Up to three circles, each labelled ADMIN as the spec has it (000 §2), and 'View all circles'. */
export function CirclesCard({ circles }: { circles: TCircleListEntry[] | undefined }) {
  const { t } = useTranslation('dashboard')
  return (
    <Card className="flex flex-col gap-2 p-5 sm:p-6">
      <CardTitle>{t('circles.title')}</CardTitle>
      {circles === undefined ? (
        <ul aria-hidden="true" className="flex flex-col gap-3 py-2">
          {[0, 1].map((key) => (
            <li key={key} className="h-5 w-3/4 animate-pulse rounded-sm bg-surface-2" />
          ))}
        </ul>
      ) : circles.length === 0 ? (
        <p className="py-2 text-sm text-fg-muted">{t('circles.empty')}</p>
      ) : (
        <ul className="-mx-2 flex flex-col">
          {circles.slice(0, LIMITS.dashboardCircles).map(({ circle }) => (
            <li key={circle.id}>
              <Link
                to={`/circles/${circle.id}`}
                className="group flex items-center gap-3 rounded-md px-2 py-2.5 transition-colors duration-150 hover:bg-surface-2"
              >
                <span className="flex min-w-0 flex-1 flex-col">
                  <span className="truncate text-sm font-medium text-fg group-hover:text-accent-text">
                    {circle.name}
                  </span>
                  <span className="text-xs text-fg-muted">
                    {t('circles.members', { count: circle.memberCount })}
                  </span>
                </span>
                <Badge tone="accent" className="shrink-0">
                  <ShieldCheck aria-hidden="true" className="me-1 size-3.5" />
                  {t('circles.admin')}
                </Badge>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Link
        to="/circles"
        className="mt-1 inline-flex items-center gap-1 self-start text-sm font-medium text-accent-text hover:underline"
      >
        {t('circles.viewAll')}
        <ChevronRight aria-hidden="true" className="size-4 rtl:rotate-180" />
      </Link>
    </Card>
  )
}
