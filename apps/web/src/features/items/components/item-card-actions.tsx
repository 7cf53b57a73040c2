import type { TItem } from '@circles/shared'
import { Pencil, Trash2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link, useLocation } from 'react-router'
import { Button, buttonClasses } from '@/components/ui/button'
import { withFrom } from '@/lib/return-path'

/**
 * Edit and delete on a circle's items list (spec 001 §6: the owner or admin, with the same restrictions
 * as on the item's page). The list shows them only where the viewer may do one of the two; the page
 * holds the delete question, so a live update that changes the card does not take it away.
 */
export function ItemCardActions({
  item,
  edit,
  remove,
  onDelete,
}: {
  item: TItem
  /** What the viewer may do with it (lib/item-permissions), decided by the list. */
  edit: boolean
  remove: boolean
  onDelete(item: TItem): void
}) {
  const { t } = useTranslation('items')
  const location = useLocation()
  return (
    <>
      {edit ? (
        <Link
          to={withFrom(`/circle/${item.circleId}/items/${item.id}/edit`, location.pathname + location.search)}
          aria-label={t('card.editNamed', { name: item.name })}
          className={buttonClasses({ variant: 'secondary', size: 'sm' })}
        >
          <Pencil aria-hidden="true" />
          {t('card.edit')}
        </Link>
      ) : null}
      {remove ? (
        <Button
          variant="ghost"
          size="sm"
          aria-label={t('card.deleteNamed', { name: item.name })}
          icon={<Trash2 aria-hidden="true" />}
          onClick={() => onDelete(item)}
        >
          {t('card.delete')}
        </Button>
      ) : null}
    </>
  )
}
