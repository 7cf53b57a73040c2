import { QrCode, UserPlus } from 'lucide-react'
import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { SectionCard } from '../section-card'
import { PendingInvitations } from './pending-invitations'
import { PartLoader } from '@/components/part-loader'

// The panels (their form library, the QR code) load when opened, not with the circle page (issue 27).
const InviteEmailPanel = lazy(() =>
  import('./invite-email-panel').then((m) => ({ default: m.InviteEmailPanel })),
)
const QrInvitationPanel = lazy(() =>
  import('./qr-invitation-panel').then((m) => ({ default: m.QrInvitationPanel })),
)

type Panel = 'email' | 'qr'

/**
 * The admin's invitations card on the circle page (spec 001 §2, §4): invite by email or share a QR
 * code (the two panels toggle, and while either is open both buttons are hidden), and the pending
 * invitations with resend and cancel. Its layout follows its own width (container queries): the page
 * puts it in a narrow side column on wide screens.
 */
export function CircleInvitations({ circleId }: { circleId: string }) {
  const { t } = useTranslation('invitations')
  const [panel, setPanel] = useState<Panel | null>(null)
  const lastOpened = useRef<Panel | null>(null)
  const emailButton = useRef<HTMLButtonElement>(null)
  const qrButton = useRef<HTMLButtonElement>(null)

  // Closing a panel brings its button back; focus returns to it rather than to the page's start.
  useEffect(() => {
    if (panel !== null || lastOpened.current === null) return
    ;(lastOpened.current === 'email' ? emailButton : qrButton).current?.focus()
  }, [panel])

  const open = (next: Panel) => {
    lastOpened.current = next
    setPanel(next)
  }
  const close = () => setPanel(null)

  return (
    <div data-circle-invitations="" className="@container">
      <SectionCard id="circle-invitations" title={t('admin.title')}>
        <div className="flex flex-col gap-4 px-5 py-4">
          <p className="text-sm text-fg-muted">{t('admin.description')}</p>
          {panel === null ? (
            <div className="flex flex-col gap-2 @xs:flex-row @xs:flex-wrap">
              <Button ref={emailButton} icon={<UserPlus aria-hidden="true" />} onClick={() => open('email')}>
                {t('admin.inviteByEmail')}
              </Button>
              <Button
                ref={qrButton}
                variant="secondary"
                icon={<QrCode aria-hidden="true" />}
                onClick={() => open('qr')}
              >
                {t('admin.shareQr')}
              </Button>
            </div>
          ) : (
            <Suspense fallback={<PartLoader />}>
              {panel === 'email' ? (
                <InviteEmailPanel circleId={circleId} onClose={close} />
              ) : (
                <QrInvitationPanel circleId={circleId} onClose={close} />
              )}
            </Suspense>
          )}
        </div>
        <PendingInvitations circleId={circleId} />
      </SectionCard>
    </div>
  )
}
