import { MESSAGES } from '@circles/shared'
import { Send } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { trackEvent } from '@/lib/analytics'
import { notify } from '@/lib/notify'
import { translateServerError } from '@/lib/server-errors'
import { useInviteByEmail } from '../../api/invite-by-email'
import { InvitationPanel } from './invitation-panel'
import { InviteEmailForm } from './invite-email-form'
import { invitationFailureText } from './invitation-text'

/** Invite by email (spec 001 §2): the server emails the link; the pending list picks it up. */
export function InviteEmailPanel({ circleId, onClose }: { circleId: string; onClose(): void }) {
  const { t } = useTranslation('invitations')
  const invite = useInviteByEmail(circleId)

  const send = (email: string) =>
    invite.mutate(
      { email },
      {
        onSuccess: (answer) => {
          notify.success(translateServerError(answer.message || MESSAGES.invitationSent))
          trackEvent('circle_invite_sent', { type: 'email' })
          onClose()
        },
      },
    )

  return (
    <InvitationPanel
      title={t('admin.email.title')}
      description={t('admin.email.description')}
      onClose={onClose}
    >
      <InviteEmailForm
        label={t('admin.email.label')}
        pending={invite.isPending}
        onSubmit={send}
        footer={invite.isError ? <Alert tone="error">{invitationFailureText(invite.error)}</Alert> : null}
        actions={
          <>
            <Button
              type="submit"
              loading={invite.isPending}
              icon={<Send aria-hidden="true" />}
              className="max-sm:h-11"
            >
              {t('admin.email.submit')}
            </Button>
            <Button variant="ghost" onClick={onClose} className="max-sm:h-11">
              {t('admin.email.cancel')}
            </Button>
          </>
        }
      />
    </InvitationPanel>
  )
}
