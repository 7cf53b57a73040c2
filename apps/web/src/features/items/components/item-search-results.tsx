import type { TItem } from '@circles/shared'
import { SearchX } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { ItemGrid } from './item-layout'

export interface ItemSearchResultsProps {
  items: TItem[]
  total: number
  /** Filters are set: an empty answer reads 'No items match', with the way out. */
  filtered: boolean
  onClear(): void
  /** The page's own empty state, for a list that has no items at all. */
  empty: ReactNode
  actions?: (item: TItem) => ReactNode
  hasMore: boolean
  loadingMore: boolean
  onMore(): void
}

/** A search's cards, its empty states and 'Show more' (issue 23). */
export function ItemSearchResults(props: ItemSearchResultsProps) {
  const { t } = useTranslation('items')
  const { items, total, filtered } = props
  if (items.length === 0) {
    if (!filtered) return <>{props.empty}</>
    return (
      <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-border-strong px-6 py-14 text-center">
        <span className="inline-flex size-12 items-center justify-center rounded-full bg-surface-2 text-fg-subtle">
          <SearchX aria-hidden="true" className="size-6" />
        </span>
        <h2 className="text-lg font-semibold tracking-tight">{t('search.noMatchTitle')}</h2>
        <p className="max-w-[50ch] text-sm text-fg-muted">{t('search.noMatchBody')}</p>
        <Button variant="secondary" onClick={props.onClear}>
          {t('search.clear')}
        </Button>
      </div>
    )
  }
  return (
    <div className="flex flex-col items-center gap-6">
      <div className="w-full">
        <ItemGrid items={items} actions={props.actions} />
      </div>
      {props.hasMore ? (
        <Button variant="secondary" loading={props.loadingMore} onClick={props.onMore}>
          {t('search.more', { count: total - items.length })}
        </Button>
      ) : null}
    </div>
  )
}
