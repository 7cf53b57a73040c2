import { MESSAGES, type TItem } from '@circles/shared'
import { useQuery } from '@tanstack/react-query'
import { ArrowLeft, Plus, QrCode } from 'lucide-react'
import { lazy, Suspense, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router'
import { Alert } from '@/components/ui/alert'
import { Button, buttonClasses } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { failureKey, translateServerError } from '@/lib/server-errors'
import { fromParam } from '@/lib/return-path'
import { getSession } from '@/lib/session'
import { useDocumentTitle } from '@/lib/use-document-title'
import { circleInfoQuery, useItem, useItemSearch } from '../api/items'
import { EmptyItems, FormPanel } from '../components/item-layout'
import { DeleteItemDialog } from '../components/delete-item-dialog'
import { ItemCardActions } from '../components/item-card-actions'
import { ItemSearchBar } from '../components/item-search-bar'
import { ItemSearchResults } from '../components/item-search-results'
import { cleared, isFiltered } from '../lib/item-search'
import { useItemSearchParams } from '../lib/use-item-search-params'
import { canDeleteItem, canEditItem } from '../lib/item-permissions'
import { PartLoader } from '@/components/part-loader'

// The item form (its form library, image handling) loads when adding or editing (issue 27).
const ItemForm = lazy(() => import('../components/item-form').then((m) => ({ default: m.ItemForm })))

/**
 * /circle/:circleId/items (spec 001 §2): the circle's items, the inline add form, the empty state;
 * searched, filtered and sorted by the query string (issue 23).
 */
export function CircleItemsPage() {
  const { circleId = '', itemId } = useParams()
  const { t } = useTranslation('items')
  const navigate = useNavigate()
  const location = useLocation()
  const flash = (location.state as { error?: string } | null)?.error
  // Opened from another page (the circle's 'Add item', an Edit link): Back, Cancel and Save go there.
  const from = fromParam(location.search)
  const addRequested = new URLSearchParams(location.search).get('add') === '1'
  const editing = useEditedItem(circleId, itemId)
  const circle = useQuery({ ...circleInfoQuery(circleId), enabled: Boolean(circleId) })
  const [search, setSearch] = useItemSearchParams()
  const items = useItemSearch({ circleId }, search)
  const found = items.data?.pages.flatMap((page) => page.items) ?? []
  const total = items.data?.pages[0]?.total
  // The circle has items (or a search is narrowing them): the list, not the 'Add First Item' state.
  const listed = found.length > 0 || isFiltered(search)
  const [addingHere, setAdding] = useState(false)
  const adding = addingHere || addRequested
  const [deleting, setDeleting] = useState<TItem | null>(null)
  const me = getSession().user?.id
  useDocumentTitle(
    circle.data
      ? t('circleItems.documentTitle', { circle: circle.data.name })
      : t('circleItems.loadingTitle'),
  )

  if (!circleId) return <Navigate to="/dashboard" replace />
  const listPath = `/circle/${circleId}/items`
  const backToList = () => void navigate(from ?? listPath, { replace: true })
  const stopAdding = () => {
    setAdding(false)
    if (addRequested) void navigate(from ?? listPath, { replace: true })
  }
  const backToCircle = from !== null && /^\/circles?\/[^/]+$/.test(from)

  return (
    <main
      id="main-content"
      className="mx-auto flex w-full max-w-6xl flex-1 flex-col gap-6 px-4 py-8 sm:px-6 sm:py-12"
    >
      <Link
        to={from ?? '/dashboard'}
        className="-ms-2 inline-flex h-11 items-center gap-1.5 self-start rounded-md px-2 text-sm font-medium text-fg-muted transition-colors hover:bg-surface-2 hover:text-fg sm:h-9"
      >
        <ArrowLeft aria-hidden="true" className="size-4 rtl:rotate-180" />
        {from === null
          ? t('circleItems.back')
          : backToCircle && circle.data
            ? t('circleItems.backToCircle', { circle: circle.data.name })
            : t('circleItems.backToPrevious')}
      </Link>
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex flex-col gap-1">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">
            {circle.data
              ? t('circleItems.title', { circle: circle.data.name })
              : t('circleItems.loadingTitle')}
          </h1>
          <p className="text-fg-muted">{t('circleItems.intro')}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          {listed ? (
            // Issue 27: the circle's printable QR labels.
            <Link to={`/circles/${circleId}/labels`} className={buttonClasses({ variant: 'secondary' })}>
              <QrCode aria-hidden="true" />
              {t('labels.link')}
            </Link>
          ) : null}
          {!adding && !itemId && listed ? (
            <Button icon={<Plus aria-hidden="true" />} onClick={() => setAdding(true)}>
              {t('circleItems.add')}
            </Button>
          ) : null}
        </div>
      </header>

      {flash ? <Alert tone="error">{flash}</Alert> : null}
      {circle.isError && !items.isError ? (
        <Alert tone="error">{t('circleItems.circleLoadFailed')}</Alert>
      ) : null}

      {editing ? (
        <FormPanel title={t('form.editTitle')} cancelLabel={t('form.cancel')} onCancel={backToList}>
          <Suspense fallback={<PartLoader />}>
            <ItemForm key={editing.id} circleId={circleId} item={editing} onDone={backToList} />
          </Suspense>
        </FormPanel>
      ) : null}

      {adding && !itemId ? (
        <FormPanel title={t('form.title')} cancelLabel={t('form.cancel')} onCancel={stopAdding}>
          <Suspense fallback={<PartLoader />}>
            <ItemForm circleId={circleId} onDone={stopAdding} />
          </Suspense>
        </FormPanel>
      ) : null}

      {listed || items.isPlaceholderData ? (
        <ItemSearchBar
          state={search}
          onChange={setSearch}
          members={(circle.data?.users ?? []).map((m) => ({ id: m.user.id, name: m.user.name }))}
          me={me}
          total={items.isPlaceholderData ? undefined : total}
        />
      ) : null}

      {items.isPending ? (
        <div className="flex min-h-[30dvh] items-center justify-center text-fg-subtle">
          <Spinner size="lg" label={t('circleItems.loading')} />
        </div>
      ) : items.isError ? (
        <p role="alert" className="rounded-md border border-danger/30 bg-danger-soft p-4 text-danger">
          {failureKey(items.error) === 'notFound'
            ? translateServerError(items.error.message)
            : t('circleItems.loadFailed')}
        </p>
      ) : !listed && adding ? null : (
        <ItemSearchResults
          items={found}
          total={total ?? 0}
          filtered={isFiltered(search)}
          onClear={() => setSearch(cleared(search))}
          hasMore={items.hasNextPage}
          loadingMore={items.isFetchingNextPage}
          onMore={() => void items.fetchNextPage()}
          empty={
            <EmptyItems title={t('circleItems.emptyTitle')} body={t('circleItems.emptyBody')}>
              <Button icon={<Plus aria-hidden="true" />} onClick={() => setAdding(true)}>
                {t('circleItems.addFirst')}
              </Button>
            </EmptyItems>
          }
          actions={(item) => {
            const edit = canEditItem(item, me)
            const remove = canDeleteItem(item, me)
            return edit || remove ? (
              <ItemCardActions item={item} edit={edit} remove={remove} onDelete={setDeleting} />
            ) : null
          }}
        />
      )}
      <DeleteItemDialog
        itemId={deleting?.id ?? ''}
        open={deleting !== null}
        onClose={() => setDeleting(null)}
      />
    </main>
  )
}

/**
 * /circle/:circleId/items/:itemId/edit (spec 001 §2): the item to edit. A locked item goes to its page
 * with the locked message, as does one with a pending handover or one the viewer may not edit (with
 * the message the server would give on save); one that cannot be loaded goes back to the circle's items.
 */
function useEditedItem(circleId: string, itemId: string | undefined): TItem | null {
  const { t } = useTranslation('items')
  const navigate = useNavigate()
  const item = useItem(itemId ?? '', { enabled: Boolean(itemId) })
  const failed = Boolean(itemId) && item.isError
  const refusal = item.data ? editRefusal(item.data, getSession().user?.id) : undefined
  useEffect(() => {
    if (failed) {
      void navigate(`/circle/${circleId}/items`, { replace: true, state: { error: t('edit.loadFailed') } })
    } else if (refusal && itemId) {
      void navigate(`/items/${itemId}`, { replace: true, state: { error: refusal } })
    }
  }, [failed, refusal, circleId, itemId, navigate, t])
  return itemId && item.data && !refusal ? item.data : null
}

/** Why this viewer cannot edit the item now, as the server would say it on save; undefined if they can. */
function editRefusal(item: TItem, me: string | undefined): string | undefined {
  if (canEditItem(item, me)) return undefined
  if (item.ownerLeftCircle && item.ownerId === me) return MESSAGES.itemNotInCircle
  if (item.locked) return MESSAGES.itemLocked
  if (item.hasPendingHandovers) return MESSAGES.itemPendingHandover
  return MESSAGES.itemEditForbidden
}
