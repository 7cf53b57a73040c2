import type { TInvitation } from '@circles/shared'
import { Mail, QrCode, Send, X } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { daysUntil } from './invitation-text'
import { dateFormat, relativeFormat } from '@/lib/intl-formats'

/** Under 30 days "Expires in 6 days" / "tomorrow", else "Expires on <short date>" (spec 001 §9's rule). */
function useExpiryText(expiresAt: string): string {
  const { t, i18n } = useTranslation('invitations')
  const days = daysUntil(expiresAt)
  if (days < 0) return t('admin.pending.expired')
  if (days < 30) {
    const when = relativeFormat(i18n.language, { numeric: 'auto' }).format(days, 'day')
    return t('admin.pending.expires', { when })
  }
  const date = dateFormat(i18n.language, { dateStyle: 'medium' }).format(new Date(expiresAt))
  return t('admin.pending.expiresOn', { date })
}

interface PendingInvitationRowProps {
  invitation: TInvitation
  resending: boolean
  onResend(): void
  onCancel(): void
}

export function PendingInvitationRow({
  invitation,
  resending,
  onResend,
  onCancel,
}: PendingInvitationRowProps) {
  const { t } = useTranslation('invitations')
  const expiry = useExpiryText(invitation.expiresAt)
  const TypeIcon = invitation.type === 'qr' ? QrCode : Mail
  return (
    <li className="flex flex-col gap-3 px-5 py-4 @lg:flex-row @lg:items-center @lg:justify-between @lg:gap-4">
      <div className="flex min-w-0 flex-col gap-1">
        <p className="flex flex-wrap items-center gap-2">
          <span className="min-w-0 text-sm font-medium break-all text-fg">{invitation.email}</span>
          <Badge tone="warning">{t('admin.pending.badge')}</Badge>
        </p>
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-fg-muted">
          <span className="inline-flex items-center gap-1.5">
            <TypeIcon aria-hidden="true" className="size-4" />
            {t(`admin.pending.type.${invitation.type}`)}
          </span>
          <span aria-hidden="true">·</span>
          <span>{expiry}</span>
        </p>
      </div>
      <div className="flex shrink-0 gap-2">
        <Button
          variant="secondary"
          size="sm"
          className="flex-1 @lg:flex-none"
          icon={<Send aria-hidden="true" />}
          loading={resending}
          onClick={onResend}
        >
          {t('admin.pending.resend')}
          <span className="sr-only"> {t('admin.pending.resendFor', { email: invitation.email })}</span>
        </Button>
        <Button
          variant="ghost"
          size="sm"
          className="text-danger hover:text-danger flex-1 @lg:flex-none"
          icon={<X aria-hidden="true" />}
          onClick={onCancel}
        >
          {t('admin.pending.cancel')}
          <span className="sr-only"> {t('admin.pending.cancelFor', { email: invitation.email })}</span>
        </Button>
      </div>
    </li>
  )
}
