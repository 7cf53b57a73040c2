import type { TCircleMember } from '@circles/shared'
import { Crown, UserMinus } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { CircleDate } from './circle-date'
import { MemberAvatar } from './member-avatar'
import { RoleBadge } from './role-badge'

interface MemberRowProps {
  member: TCircleMember
  isSelf: boolean
  /** Present only for the admin looking at another member. */
  actions?: { onMakeAdmin(): void; onRemove(): void }
}

/** Avatar, name, email, joined date and the Admin badge; the admin's actions for everyone else. */
export function MemberRow({ member, isSelf, actions }: MemberRowProps) {
  const { t } = useTranslation('circles')
  const isAdmin = member.role === 'ADMIN'

  return (
    <li className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-center sm:gap-4">
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <MemberAvatar name={member.user.name} avatarUrl={member.user.avatarUrl} highlighted={isAdmin} />
        <div className="flex min-w-0 flex-1 flex-col gap-0.5">
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <span className="min-w-0 font-medium break-words text-fg">{member.user.name}</span>
            {isSelf ? <Badge tone="neutral">{t('detail.you')}</Badge> : null}
            {isAdmin ? <RoleBadge role="ADMIN" /> : null}
          </p>
          <p className="truncate text-sm text-fg-muted" title={member.user.email}>
            {member.user.email}
          </p>
          <p className="text-xs text-fg-subtle">
            <CircleDate iso={member.joinedAt} kind="joined" />
          </p>
        </div>
      </div>
      {actions ? (
        <div
          role="group"
          aria-label={t('detail.members.actionsLabel', { name: member.user.name })}
          className="flex flex-wrap gap-2 sm:shrink-0"
        >
          <Button
            variant="secondary"
            size="sm"
            icon={<Crown aria-hidden="true" />}
            aria-label={t('detail.members.makeAdminLabel', { name: member.user.name })}
            onClick={actions.onMakeAdmin}
          >
            {t('detail.members.makeAdmin')}
          </Button>
          <Button
            variant="ghost"
            size="sm"
            icon={<UserMinus aria-hidden="true" />}
            aria-label={t('detail.members.removeLabel', { name: member.user.name })}
            onClick={actions.onRemove}
          >
            {t('detail.members.remove')}
          </Button>
        </div>
      ) : null}
    </li>
  )
}
