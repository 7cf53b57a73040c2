import { MESSAGES } from '@circles/shared'
import { Alert } from '@/components/ui/alert'
import { translateServerError } from '@/lib/server-errors'
import { useAuthTranslation } from '../lib/use-auth-translation'
import { InvitationNotice } from './invitation-notice'
import { TextLink } from './text-link'

interface LoginNoticesProps {
  /** Arrived from a completed password reset (?message=password-reset-success). */
  resetDone: boolean
  /** The token of an invitation that waits for this sign-in (spec 000 §2), or null. */
  invitation: string | null
  /** The last attempt was refused because the email is not verified yet. */
  unverified: boolean
}

/** The banners above the login form; they stay on screen, unlike the toasts. */
export function LoginNotices({ resetDone, invitation, unverified }: LoginNoticesProps) {
  const { t } = useAuthTranslation()
  return (
    <>
      {resetDone ? (
        <Alert tone="success" title={t('login.resetDone')}>
          {translateServerError(MESSAGES.resetSuccess)} {t('login.resetDoneBody')}
        </Alert>
      ) : null}
      {invitation ? <InvitationNotice token={invitation} page="login" /> : null}
      {unverified ? (
        <Alert
          tone="warning"
          title={t('login.unverified.title')}
          action={<TextLink to="/resend-verification">{t('login.unverified.action')}</TextLink>}
        >
          {translateServerError(MESSAGES.emailNotVerified)}
        </Alert>
      ) : null}
    </>
  )
}
