import type { TItem } from '@circles/shared'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { PrivateImage } from '@/components/private-image'
import { hasLendingBadges, LendingBadges } from '@/components/lending/lending-badge'
import { LendingStatus } from '@/components/lending/lending-status'
import { Badge } from '@/components/ui/badge'
import { personName } from '@/lib/person-name'

/**
 * An item in a grid: its small picture, name, description and holder (spec 001 §2), linking to its
 * page; `actions` (edit, delete) sit in a footer outside the link.
 */
export function ItemCard({ item, actions }: { item: TItem; actions?: ReactNode }) {
  const { t } = useTranslation('items')
  return (
    <article className="flex h-full flex-col overflow-hidden rounded-lg border border-border bg-surface shadow-sm transition-shadow hover:shadow-md">
      <Link
        to={`/items/${item.id}`}
        className="group flex flex-1 flex-col focus-visible:outline-2 focus-visible:-outline-offset-2"
      >
        <PrivateImage
          url={item.thumbnailUrl}
          alt={t('card.pictureOf', { name: item.name })}
          className="aspect-[4/3] w-full"
        />
        <div className="flex flex-1 flex-col gap-1.5 p-4">
          <h2 className="font-semibold tracking-tight text-fg group-hover:text-accent-text">{item.name}</h2>
          {item.hasPendingHandovers || item.locked || hasLendingBadges(item.lending) ? (
            <div className="flex flex-wrap gap-1.5">
              {item.hasPendingHandovers ? <Badge tone="warning">{t('detail.pending')}</Badge> : null}
              {item.locked ? <Badge tone="success">{t('detail.lockedTitle')}</Badge> : null}
              <LendingBadges lending={item.lending} />
            </div>
          ) : null}
          <p className="line-clamp-2 text-sm text-fg-muted">{item.description ?? t('card.noDescription')}</p>
          {item.lending?.loan ? <LendingStatus lending={item.lending} className="text-xs" /> : null}
          <p className="mt-auto pt-2 text-xs text-fg-subtle">
            {t('card.heldBy', { name: personName(item.owner.name), circle: item.circle.name })}
          </p>
        </div>
      </Link>
      {actions ? (
        <div className="flex flex-wrap gap-2 border-t border-border px-4 py-3">{actions}</div>
      ) : null}
    </article>
  )
}
