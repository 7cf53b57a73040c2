import { useTranslation } from 'react-i18next'
import { Navigate, useParams } from 'react-router'
import { useDocumentTitle } from '@/lib/use-document-title'
import { useItemByCode } from '../api/items'
import { ItemFailure, ItemLoading } from '../components/item-page-states'

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
  return item.isError ? <ItemFailure error={item.error} /> : <ItemLoading />
}
