import { LIMITS, type TCircleDetail, type TCircleItem } from '@circles/shared'
import { ArrowRight, ChevronRight, Package, Plus } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link, useLocation } from 'react-router'
import { Badge } from '@/components/ui/badge'
import { PrivateImage } from '@/components/private-image'
import { buttonClasses } from '@/components/ui/button'
import { withFrom } from '@/lib/return-path'
import { SectionCard } from './section-card'

/** A pending handover is where the item's story continues; otherwise its own page (spec 001 §2). */
const itemLink = (item: TCircleItem) =>
  item.hasPendingHandover ? `/items/${item.id}/handover` : `/items/${item.id}`

function ItemRow({ item }: { item: TCircleItem }) {
  const { t } = useTranslation('circles')
  return (
    <li>
      <Link
        to={itemLink(item)}
        className="group flex min-h-16 items-center gap-3 px-5 py-3 transition-colors hover:bg-surface-2"
      >
        {item.thumbnailUrl ? (
          <PrivateImage
            url={item.thumbnailUrl}
            alt=""
            className="size-10 shrink-0 rounded-md border border-border"
          />
        ) : (
          <span
            aria-hidden="true"
            className="inline-flex size-10 shrink-0 items-center justify-center rounded-md bg-surface-2 text-fg-subtle"
          >
            <Package className="size-5" />
          </span>
        )}
        <span className="flex min-w-0 flex-1 flex-col">
          <span className="flex flex-wrap items-center gap-2">
            <span className="truncate font-medium text-fg group-hover:text-accent-text">{item.name}</span>
            {item.hasPendingHandover ? <Badge tone="warning">{t('detail.items.pending')}</Badge> : null}
          </span>
          {item.description ? (
            <span className="truncate text-sm text-fg-muted">{item.description}</span>
          ) : null}
        </span>
        <ChevronRight aria-hidden="true" className="size-4 shrink-0 text-fg-subtle rtl:rotate-180" />
      </Link>
    </li>
  )
}

/** Up to six of the circle's items, an Add Item button, and a link to all of them when there are more. */
export function ItemsCard({ circle }: { circle: TCircleDetail }) {
  const { t } = useTranslation('circles')
  const itemsPage = `/circle/${circle.id}/items`
  // Opens the add form at once and comes back here when it is done (issue 23).
  const addItem = withFrom(`${itemsPage}?add=1`, useLocation().pathname)
  const shown = circle.items.slice(0, LIMITS.circlePageItems)

  return (
    <SectionCard
      id="circle-items"
      title={t('detail.items.title')}
      action={
        <Link to={addItem} className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
          <Plus aria-hidden="true" />
          {t('detail.items.add')}
        </Link>
      }
    >
      {shown.length === 0 ? (
        <div className="flex flex-col items-center gap-2 px-5 py-10 text-center">
          <span className="inline-flex size-10 items-center justify-center rounded-full bg-surface-2 text-fg-subtle">
            <Package aria-hidden="true" className="size-5" />
          </span>
          <p className="font-medium text-fg">{t('detail.items.empty')}</p>
          <p className="max-w-[44ch] text-sm text-fg-muted">{t('detail.items.emptyHint')}</p>
        </div>
      ) : (
        <ul className="divide-y divide-border">
          {shown.map((item) => (
            <ItemRow key={item.id} item={item} />
          ))}
        </ul>
      )}
      {circle.items.length > LIMITS.circlePageItems ? (
        <div className="border-t border-border px-5 py-3">
          <Link
            to={itemsPage}
            className="inline-flex h-11 items-center gap-1.5 text-sm font-medium text-accent-text hover:underline sm:h-8"
          >
            {t('detail.items.all', { count: circle.items.length })}
            <ArrowRight aria-hidden="true" className="size-4 rtl:rotate-180" />
          </Link>
        </div>
      ) : null}
    </SectionCard>
  )
}
