import { MESSAGES, type TCircleDetail, type TCircleMember } from '@circles/shared'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { notify } from '@/lib/notify'
import { translateServerError } from '@/lib/server-errors'
import { useRemoveMember } from '../api/remove-member'
import { useTransferOwnership } from '../api/transfer-ownership'
import { actionErrorText } from '../lib/errors'
import { MemberRow } from './member-row'
import { SectionCard } from './section-card'

type PendingAction = { kind: 'remove' | 'transfer'; member: TCircleMember }

/** The admin first, then everyone in the order they joined. */
function byRoleThenJoined(a: TCircleMember, b: TCircleMember): number {
  if (a.role !== b.role) return a.role === 'ADMIN' ? -1 : 1
  return a.joinedAt.localeCompare(b.joinedAt)
}

interface MembersCardProps {
  circle: TCircleDetail
  viewerId: string | undefined
}

/**
 * The members, titled with their count (spec 001 §2). The admin can remove any other member and hand
 * the circle over to one; both ask first, naming the member and what will happen.
 */
export function MembersCard({ circle, viewerId }: MembersCardProps) {
  const { t } = useTranslation('circles')
  const viewerIsAdmin = viewerId !== undefined && circle.adminId === viewerId
  const removing = useRemoveMember(circle.id)
  const transferring = useTransferOwnership(circle.id)
  const [pending, setPending] = useState<PendingAction | null>(null)
  const members = [...circle.users].sort(byRoleThenJoined)

  const confirm = () => {
    if (!pending) return
    const { kind, member } = pending
    const mutation = kind === 'remove' ? removing : transferring
    mutation.mutate(member.userId, {
      onSuccess: (answer) => {
        const fallback = kind === 'remove' ? MESSAGES.memberRemoved : MESSAGES.ownershipTransferred
        notify.success(translateServerError(answer.message ?? fallback))
        setPending(null)
      },
      onError: (error) => {
        notify.error(actionErrorText(error))
        setPending(null)
      },
    })
  }

  const name = pending?.member.user.name ?? ''
  const busy = removing.isPending || transferring.isPending

  return (
    <SectionCard id="circle-members" title={t('detail.members.title', { count: circle.users.length })}>
      <ul className="divide-y divide-border">
        {members.map((member) => (
          <MemberRow
            key={member.id}
            member={member}
            isSelf={member.userId === viewerId}
            actions={
              viewerIsAdmin && member.userId !== viewerId
                ? {
                    onMakeAdmin: () => setPending({ kind: 'transfer', member }),
                    onRemove: () => setPending({ kind: 'remove', member }),
                  }
                : undefined
            }
          />
        ))}
      </ul>
      <ConfirmDialog
        open={pending?.kind === 'remove'}
        title={t('detail.removeDialog.title', { name })}
        description={<p>{t('detail.removeDialog.body', { name, circle: circle.name })}</p>}
        confirmLabel={t('detail.removeDialog.confirm')}
        cancelLabel={t('detail.cancel')}
        tone="danger"
        pending={busy}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      />
      <ConfirmDialog
        open={pending?.kind === 'transfer'}
        title={t('detail.transferDialog.title', { name })}
        description={<p>{t('detail.transferDialog.body', { name, circle: circle.name })}</p>}
        confirmLabel={t('detail.transferDialog.confirm')}
        cancelLabel={t('detail.cancel')}
        pending={busy}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      />
    </SectionCard>
  )
}
