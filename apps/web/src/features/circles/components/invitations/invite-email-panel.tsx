import { MESSAGES } from '@circles/shared'
import { Send } from 'lucide-react'
import { useTranslation } from 'react-i18next'
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
        submitLabel={t('admin.email.submit')}
        submitIcon={<Send aria-hidden="true" />}
        pending={invite.isPending}
        onSubmit={send}
        onCancel={onClose}
        error={invite.isError ? invitationFailureText(invite.error) : undefined}
      />
    </InvitationPanel>
  )
}
