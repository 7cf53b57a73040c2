import { useTranslation } from 'react-i18next'
import { Link, Navigate, useParams } from 'react-router'
import { buttonClasses } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { failureKey } from '@/lib/server-errors'
import { useDocumentTitle } from '@/lib/use-document-title'
import { useItemByCode } from '../api/items'

/**
 * /i/:code (issue 27): where a label's QR code leads. Signed out, the route's guard sends the visitor to
 * sign in and back here; signed in, the code resolves and the item page replaces this address. A code
 * that names no item the person may see shows the item page's own 'not found' (docs/decisions/0052).
 */
export function ItemCodePage() {
  const { code = '' } = useParams()
  const { t } = useTranslation('items')
  const item = useItemByCode(code)
  useDocumentTitle(t('detail.loadingTitle'))

  if (item.data) return <Navigate to={`/items/${item.data.id}`} replace />
  return (
    <main
      id="main-content"
      className="mx-auto flex w-full max-w-5xl flex-1 flex-col gap-6 px-4 py-8 sm:px-6 sm:py-12"
    >
      {item.isError ? (
        <div
          role="alert"
          className="flex flex-col items-start gap-4 rounded-lg border border-border bg-surface p-6 shadow-sm"
        >
          <h1 className="text-xl font-semibold tracking-tight">
            {failureKey(item.error) === 'notFound' ? t('detail.notFound') : t('detail.loadFailed')}
          </h1>
          <Link to="/items" className={buttonClasses({ variant: 'secondary' })}>
            {t('detail.toMyItems')}
          </Link>
        </div>
      ) : (
        <div className="flex min-h-[40dvh] items-center justify-center text-fg-subtle">
          <Spinner size="lg" label={t('detail.loading')} />
        </div>
      )}
    </main>
  )
}
