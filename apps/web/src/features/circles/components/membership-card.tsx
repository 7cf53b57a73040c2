import { MESSAGES, type TCircleDetail } from '@circles/shared'
import { Info, LogOut } from 'lucide-react'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { Button } from '@/components/ui/button'
import { Card, CardDescription, CardTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { trackEvent } from '@/lib/analytics'
import { notify } from '@/lib/notify'
import { translateServerError } from '@/lib/server-errors'
import { useLeaveCircle } from '../api/leave-circle'
import { actionErrorText } from '../lib/errors'

interface MembershipCardProps {
  circle: TCircleDetail
  viewerIsAdmin: boolean
}

/**
 * The viewer's own standing. A member can leave (after confirming); the admin cannot, and is told to
 * hand the circle to another member first.
 */
export function MembershipCard({ circle, viewerIsAdmin }: MembershipCardProps) {
  const { t } = useTranslation('circles')
  const titleId = useId()
  const navigate = useNavigate()
  const leaving = useLeaveCircle(circle.id)
  const [confirming, setConfirming] = useState(false)

  const leave = () => {
    leaving.mutate(undefined, {
      onSuccess: async (answer) => {
        trackEvent('circle_left')
        notify.success(translateServerError(answer.message ?? MESSAGES.leftCircle))
        await navigate('/circles')
        leaving.forgetCircle()
      },
      onError: (error) => {
        notify.error(actionErrorText(error))
        setConfirming(false)
      },
    })
  }

  return (
    <Card role="region" aria-labelledby={titleId} className="flex flex-col gap-4 p-5 sm:p-6">
      <div>
        <CardTitle id={titleId}>{t('detail.membership.title')}</CardTitle>
        <CardDescription>
          {viewerIsAdmin ? t('detail.membership.adminBody') : t('detail.membership.memberBody')}
        </CardDescription>
      </div>
      {viewerIsAdmin ? (
        <p className="flex gap-2 rounded-md bg-surface-2 px-3 py-2.5 text-sm text-fg-muted">
          <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-info" />
          {t('detail.membership.adminHint')}
        </p>
      ) : (
        <Button
          variant="secondary"
          icon={<LogOut aria-hidden="true" />}
          onClick={() => setConfirming(true)}
          className="self-start"
        >
          {t('detail.membership.leave')}
        </Button>
      )}
      <ConfirmDialog
        open={confirming}
        title={t('detail.leaveDialog.title', { circle: circle.name })}
        description={<p>{t('detail.leaveDialog.body')}</p>}
        confirmLabel={t('detail.leaveDialog.confirm')}
        cancelLabel={t('detail.cancel')}
        tone="danger"
        pending={leaving.isPending}
        onConfirm={leave}
        onCancel={() => setConfirming(false)}
      />
    </Card>
  )
}
