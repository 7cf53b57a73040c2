import type { TCircleListEntry } from '@circles/shared'
import { ChevronRight, UsersRound } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { CircleDate } from './circle-date'
import { RoleBadge } from './role-badge'

/** One circle in the /circles grid; the whole card links to the circle (spec 001 §2). */
export function CircleCard({ entry }: { entry: TCircleListEntry }) {
  const { t } = useTranslation('circles')
  const { circle } = entry
  return (
    <Link
      to={`/circles/${circle.id}`}
      className="group flex h-full flex-col gap-3 rounded-lg border border-border bg-surface p-5 shadow-sm transition-[border-color,box-shadow] duration-150 hover:border-accent/40 hover:shadow-md"
    >
      <div className="flex items-start justify-between gap-3">
        <h2 className="min-w-0 text-base font-semibold tracking-tight break-words text-fg group-hover:text-accent-text">
          {circle.name}
        </h2>
        <RoleBadge role={entry.role} className="shrink-0" />
      </div>
      {circle.description ? (
        <p className="line-clamp-2 text-sm text-fg-muted">{circle.description}</p>
      ) : (
        <p className="text-sm text-fg-subtle italic">{t('detail.noDescription')}</p>
      )}
      <div className="mt-auto flex items-center justify-between gap-3 border-t border-border pt-3 text-xs text-fg-muted">
        <span className="inline-flex items-center gap-1.5">
          <UsersRound aria-hidden="true" className="size-3.5" />
          {t('list.members', { count: circle.memberCount })}
        </span>
        <span className="inline-flex items-center gap-1">
          <CircleDate iso={entry.joinedAt} kind="joined" />
          <ChevronRight
            aria-hidden="true"
            className="size-4 text-fg-subtle transition-transform duration-150 group-hover:translate-x-0.5 rtl:rotate-180"
          />
        </span>
      </div>
    </Link>
  )
}
