import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Staged } from '@/components/staged'
import { ScanButton } from '@/components/scan-button'
import { buttonClasses } from '@/components/ui/button'
import { getSession } from '@/lib/session'
import { useDocumentTitle } from '@/lib/use-document-title'
import { useCircleMembers } from '../api/handovers'
import { useItemSearch, useMyCircles } from '../api/items'
import { EmptyItems } from '../components/item-layout'
import { ItemSearchBar } from '../components/item-search-bar'
import { ItemSearchResults } from '../components/item-search-results'
import { cleared, isFiltered } from '../lib/item-search'
import { useItemSearchParams } from '../lib/use-item-search-params'

/**
 * /items (spec 001 §2): the items the user holds, in every circle; searched, filtered and sorted by the
 * query string (issue 23), where 'Anyone' widens it to every item of the user's circles.
 */
export function ItemsPage() {
  const { t } = useTranslation('items')
  const [search, setSearch] = useItemSearchParams()
  const items = useItemSearch({ mine: true }, search)
  const circles = useMyCircles()
  const members = useCircleMembers(search.circle || undefined)
  useDocumentTitle(t('mine.documentTitle'))
  const first = items.data?.pages[0]
  const found = items.data?.pages.flatMap((page) => page.items) ?? []

  return (
    <main
      id="main-content"
      className="mx-auto flex w-full max-w-6xl flex-1 flex-col gap-6 px-4 py-8 sm:px-6 sm:py-12"
    >
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-col gap-1">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{t('mine.title')}</h1>
          <p className="text-fg-muted">{t('mine.intro')}</p>
        </div>
        {/* Issue 27: a label on a thing in hand opens that thing. */}
        <ScanButton />
      </header>
      {/* The search too: a frame has no field someone could type into before the app is there. */}
      <Staged>
        <ItemSearchBar
          state={search}
          onChange={setSearch}
          circles={circles.data ?? []}
          members={(members.data ?? []).map((m) => ({ id: m.user.id, name: m.user.name }))}
          me={getSession().user?.id}
          total={items.isPlaceholderData ? undefined : first?.total}
        />
        {items.isPending ? (
          <ul
            aria-busy="true"
            aria-label={t('mine.loading')}
            className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3"
          >
            {[0, 1, 2].map((n) => (
              <li key={n} className="h-72 animate-pulse rounded-lg border border-border bg-surface-2" />
            ))}
          </ul>
        ) : items.isError ? (
          <p role="alert" className="rounded-md border border-danger/30 bg-danger-soft p-4 text-danger">
            {t('circleItems.loadFailed')}
          </p>
        ) : (
          <ItemSearchResults
            items={found}
            total={first?.total ?? 0}
            filtered={isFiltered(search)}
            onClear={() => setSearch(cleared(search))}
            hasMore={items.hasNextPage}
            loadingMore={items.isFetchingNextPage}
            onMore={() => void items.fetchNextPage()}
            empty={
              <EmptyItems title={t('mine.emptyTitle')} body={t('mine.emptyBody')}>
                <Link to="/circles" className={buttonClasses()}>
                  {t('mine.toCircles')}
                </Link>
                <Link to="/dashboard" className={buttonClasses({ variant: 'secondary' })}>
                  {t('mine.toDashboard')}
                </Link>
              </EmptyItems>
            }
          />
        )}
      </Staged>
    </main>
  )
}
