import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { buttonClasses } from '@/components/ui/button'
import { useDocumentTitle } from '@/lib/use-document-title'
import { useMyItems } from '../api/items'
import { EmptyItems, ItemGrid } from '../components/item-layout'

/** /items (spec 001 §2): the items the user holds, in every circle. */
export function ItemsPage() {
  const { t } = useTranslation('items')
  const items = useMyItems()
  useDocumentTitle(t('mine.documentTitle'))

  return (
    <main
      id="main-content"
      className="mx-auto flex w-full max-w-6xl flex-1 flex-col gap-6 px-4 py-8 sm:px-6 sm:py-12"
    >
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{t('mine.title')}</h1>
        <p className="text-fg-muted">{t('mine.intro')}</p>
      </header>
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
      ) : items.data.length === 0 ? (
        <EmptyItems title={t('mine.emptyTitle')} body={t('mine.emptyBody')}>
          <Link to="/circles" className={buttonClasses()}>
            {t('mine.toCircles')}
          </Link>
          <Link to="/dashboard" className={buttonClasses({ variant: 'secondary' })}>
            {t('mine.toDashboard')}
          </Link>
        </EmptyItems>
      ) : (
        <ItemGrid items={items.data} />
      )}
    </main>
  )
}
