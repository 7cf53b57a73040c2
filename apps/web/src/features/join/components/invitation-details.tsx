import type { TInvitationPreview } from '@circles/shared'
import { useTranslation } from 'react-i18next'
import { dateFormat } from '@/lib/intl-formats'

/** A short date in the UI language, e.g. "Mar 12, 2025" or "12.03.2025". */
function shortDate(iso: string, language: string): string {
  return dateFormat(language, { dateStyle: 'medium' }).format(new Date(iso))
}

/** What the invitation is for: circle, who invited, which address, until when. */
export function InvitationDetails({
  invitation,
  inviter,
}: {
  invitation: TInvitationPreview
  inviter: string
}) {
  const { t, i18n } = useTranslation('invitations')
  const rows = [
    { label: t('join.details.circle'), value: invitation.circleName },
    { label: t('join.details.invitedBy'), value: inviter },
    { label: t('join.details.invitedEmail'), value: invitation.email },
    { label: t('join.details.validUntil'), value: shortDate(invitation.expiresAt, i18n.language) },
  ]
  return (
    <dl className="divide-y divide-border rounded-md border border-border bg-surface-2 text-sm">
      {rows.map((row) => (
        <div key={row.label} className="flex flex-col gap-0.5 px-4 py-2.5 sm:flex-row sm:gap-4">
          <dt className="shrink-0 text-fg-muted sm:w-32">{row.label}</dt>
          <dd className="min-w-0 font-medium break-words text-fg">{row.value}</dd>
        </div>
      ))}
    </dl>
  )
}
