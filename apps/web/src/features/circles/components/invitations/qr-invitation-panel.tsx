import { MESSAGES } from '@circles/shared'
import { QrCode } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { trackEvent } from '@/lib/analytics'
import { notify } from '@/lib/notify'
import { pageOrigin } from '@/lib/page-origin'
import { translateServerError } from '@/lib/server-errors'
import { useCreateQrInvitation } from '../../api/create-qr-invitation'
import { InvitationPanel } from './invitation-panel'
import { InviteEmailForm } from './invite-email-form'
import { invitationFailureText } from './invitation-text'
import { QrInvitationResult } from './qr-invitation-result'

/** The link a QR invitation encodes (spec 001 §9: {host}/join?token={token}). */
export function invitationLink(token: string, origin: string = pageOrigin()): string {
  return `${origin}/join?token=${token}`
}

/**
 * Share QR code (spec 001 §2): an invitation bound to the invitee's email, no email sent. The form, then
 * the code with copy / download / 'Create Another QR Code' (which clears email and token).
 */
export function QrInvitationPanel({ circleId, onClose }: { circleId: string; onClose(): void }) {
  const { t } = useTranslation('invitations')
  const create = useCreateQrInvitation(circleId)
  const [result, setResult] = useState<{ email: string; token: string } | null>(null)

  const generate = (email: string) =>
    create.mutate(
      { email },
      {
        onSuccess: (answer) => {
          setResult({ email: answer.invitation.email, token: answer.invitation.token })
          notify.success(translateServerError(MESSAGES.qrGenerated))
          trackEvent('circle_invite_sent', { type: 'qr' })
        },
        onError: (error) => notify.error(invitationFailureText(error, MESSAGES.qrFailed)),
      },
    )

  const createAnother = () => {
    setResult(null)
    create.reset()
  }

  return (
    <InvitationPanel title={t('admin.qr.title')} description={t('admin.qr.description')} onClose={onClose}>
      {result ? (
        <QrInvitationResult
          email={result.email}
          link={invitationLink(result.token)}
          onCreateAnother={createAnother}
        />
      ) : (
        <InviteEmailForm
          label={t('admin.qr.label')}
          submitLabel={t('admin.qr.submit')}
          submitIcon={<QrCode aria-hidden="true" />}
          pending={create.isPending}
          onSubmit={generate}
          onCancel={onClose}
          error={create.isError ? invitationFailureText(create.error, MESSAGES.qrFailed) : undefined}
        />
      )}
    </InvitationPanel>
  )
}
