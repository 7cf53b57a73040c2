import { MESSAGES } from '@circles/shared'
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { notify } from '@/lib/notify'
import { failureMessage, translateServerError } from '@/lib/server-errors'
import { useDeleteItem } from '../api/items'

/**
 * 'Are you sure you want to delete this item?' (spec 001 §5), then the delete. A refusal shows the
 * server's message, else the generic deletion error (spec 001 §8), and closes the dialog.
 */
export function DeleteItemDialog({
  itemId,
  open,
  onClose,
  onDeleted,
}: {
  itemId: string
  open: boolean
  onClose(): void
  onDeleted?(): void
}) {
  const { t } = useTranslation('items')
  const remove = useDeleteItem()
  const confirm = () =>
    remove.mutate(itemId, {
      onSuccess: () => {
        notify.success(translateServerError(MESSAGES.itemDeleted))
        onClose()
        onDeleted?.()
      },
      onError: (error) => {
        onClose()
        notify.error(failureMessage(error, t('detail.deleteFailed')))
      },
    })
  return (
    <ConfirmDialog
      open={open}
      title={t('detail.deleteTitle')}
      description={t('detail.deleteQuestion')}
      confirmLabel={t('detail.delete')}
      cancelLabel={t('form.cancel')}
      tone="danger"
      pending={remove.isPending}
      onConfirm={confirm}
      onCancel={onClose}
    />
  )
}
