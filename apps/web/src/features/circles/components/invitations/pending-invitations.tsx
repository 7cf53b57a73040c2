import { MESSAGES, type TInvitation } from '@circles/shared'
import { MailPlus, RotateCw } from 'lucide-react'
import { useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { Spinner } from '@/components/ui/spinner'
import { notify } from '@/lib/notify'
import { translateServerError } from '@/lib/server-errors'
import { useCancelInvitation } from '../../api/cancel-invitation'
import { useInvitations } from '../../api/list-invitations'
import { useResendInvitation } from '../../api/resend-invitation'
import { invitationFailureText } from './invitation-text'
import { PendingInvitationRow } from './pending-invitation-row'

/** The admin's pending invitations (spec 001 §2): resend, or cancel after a confirmation. */
export function PendingInvitations({ circleId }: { circleId: string }) {
  const { t } = useTranslation('invitations')
  const headingId = useId()
  const heading = useRef<HTMLHeadingElement>(null)
  const invitations = useInvitations(circleId)
  const resend = useResendInvitation(circleId)
  const cancel = useCancelInvitation(circleId)
  const [cancelling, setCancelling] = useState<TInvitation | null>(null)

  const onResend = (invitation: TInvitation) =>
    resend.mutate(invitation.id, {
      onSuccess: (answer) =>
        notify.success(translateServerError(answer.message || MESSAGES.invitationResent)),
      onError: (error) => notify.error(invitationFailureText(error)),
    })

  const onConfirmCancel = () => {
    if (!cancelling) return
    cancel.mutate(cancelling.id, {
      onSuccess: (answer) => {
        notify.success(translateServerError(answer.message || MESSAGES.invitationCancelled))
        // The row (and the button that had focus) is gone: continue at the list.
        heading.current?.focus()
      },
      onError: (error) => notify.error(invitationFailureText(error)),
      onSettled: () => setCancelling(null),
    })
  }

  const list = invitations.data ?? []

  return (
    <section aria-labelledby={headingId} className="border-t border-border">
      <div className="flex items-center gap-2 px-5 pt-4 pb-1">
        <h3
          ref={heading}
          id={headingId}
          tabIndex={-1}
          className="text-sm font-semibold tracking-tight text-fg outline-none"
        >
          {t('admin.pending.title')}
        </h3>
        {invitations.isSuccess && list.length > 0 ? <Badge>{list.length}</Badge> : null}
      </div>

      {invitations.isPending ? (
        <div className="flex items-center gap-2 px-5 py-4 text-sm text-fg-muted">
          <Spinner size="sm" label={t('admin.pending.loading')} />
          <span aria-hidden="true">{t('admin.pending.loading')}</span>
        </div>
      ) : invitations.isError ? (
        <div className="px-5 py-4">
          <Alert
            tone="error"
            action={
              <Button
                variant="secondary"
                size="sm"
                icon={<RotateCw aria-hidden="true" />}
                onClick={() => void invitations.refetch()}
                loading={invitations.isFetching}
              >
                {t('admin.pending.retry')}
              </Button>
            }
          >
            {translateServerError(MESSAGES.anErrorOccurred)}
          </Alert>
        </div>
      ) : list.length === 0 ? (
        <div className="px-5 pt-2 pb-5">
          <div className="flex items-start gap-3 rounded-md border border-dashed border-border px-4 py-3 text-sm">
            <MailPlus aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-fg-subtle" />
            <div>
              <p className="font-medium text-fg">{t('admin.pending.empty')}</p>
              <p className="text-fg-muted">{t('admin.pending.emptyHint')}</p>
            </div>
          </div>
        </div>
      ) : (
        <ul className="divide-y divide-border">
          {list.map((invitation) => (
            <PendingInvitationRow
              key={invitation.id}
              invitation={invitation}
              resending={resend.isPending && resend.variables === invitation.id}
              onResend={() => onResend(invitation)}
              onCancel={() => setCancelling(invitation)}
            />
          ))}
        </ul>
      )}

      <ConfirmDialog
        open={cancelling !== null}
        title={t('admin.confirmCancel.title')}
        description={t('admin.confirmCancel.body', { email: cancelling?.email ?? '' })}
        confirmLabel={t('admin.confirmCancel.confirm')}
        cancelLabel={t('admin.confirmCancel.keep')}
        tone="danger"
        pending={cancel.isPending}
        onConfirm={onConfirmCancel}
        onCancel={() => setCancelling(null)}
      />
    </section>
  )
}
