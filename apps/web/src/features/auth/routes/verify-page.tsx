import { MESSAGES, TIMINGS } from '@circles/shared'
import { CircleCheck, MailWarning } from 'lucide-react'
import { useEffect } from 'react'
import { Link, useNavigate } from 'react-router'
import { buttonClasses } from '@/components/ui/button'
import { translateServerError } from '@/lib/server-errors'
import { verificationEmail } from '@/lib/session'
import { useVerifyEmail } from '../api/verify-email'
import { loginState } from '../lib/login-prefill'
import { AuthLayout } from '../components/auth-layout'
import { CheckingState } from '../components/checking-state'
import { verificationErrorText } from '../lib/verification-errors'
import { useAuthTranslation } from '../lib/use-auth-translation'
import { useClientSearchParams } from '../lib/use-client-search-params'

/** /verify?token= (spec 000 §2, §4): loading, then success (to /login after 2 s) or an error. */
export function VerifyPage() {
  const { t } = useAuthTranslation()
  const navigate = useNavigate()
  const params = useClientSearchParams()
  const token = params ? params.get('token')?.trim() || null : undefined
  const verification = useVerifyEmail(token ?? null)
  const verified = verification.data?.verified === true
  // The login opens with the verified address filled in: the server's answer names it; a repeat visit
  // in this browser (answered without asking) falls back to the address remembered at registration.
  const email = verified ? (verification.data?.email ?? verificationEmail.get() ?? null) : null

  useEffect(() => {
    if (!verified) return
    const timer = setTimeout(
      () => void navigate('/login', { replace: true, state: loginState(email) }),
      TIMINGS.redirectAfterVerifyMs,
    )
    return () => clearTimeout(timer)
  }, [verified, email, navigate])

  const documentTitle = t('verify.documentTitle')

  if (token === undefined || (token && verification.isPending)) {
    return (
      <CheckingState
        documentTitle={documentTitle}
        title={t('verify.checking')}
        hint={t('verify.checkingHint')}
      />
    )
  }

  if (verified) {
    return (
      <AuthLayout
        documentTitle={documentTitle}
        title={t('verify.success.title')}
        icon={<CircleCheck aria-hidden="true" />}
        iconTone="success"
        intro={
          <div className="flex flex-col gap-2">
            <p>{translateServerError(verification.data?.message || MESSAGES.emailVerified)}</p>
            <p>{t('verify.success.redirect')}</p>
          </div>
        }
      >
        <Link
          to="/login"
          replace
          state={loginState(email)}
          className={buttonClasses({ size: 'lg', className: 'w-full' })}
        >
          {t('verify.success.login')}
        </Link>
      </AuthLayout>
    )
  }

  const message = !token
    ? t('verify.noToken')
    : verification.isError
      ? verificationErrorText(verification.error, t)
      : verification.data?.message
        ? translateServerError(verification.data.message)
        : t('verify.invalidStatus')

  return (
    <AuthLayout
      documentTitle={documentTitle}
      title={t('verify.error.title')}
      icon={<MailWarning aria-hidden="true" />}
      iconTone="danger"
      intro={<p role="alert">{message}</p>}
    >
      <div className="flex flex-col gap-2">
        <Link to="/resend-verification" className={buttonClasses({ size: 'lg', className: 'w-full' })}>
          {t('verify.error.resend')}
        </Link>
        <Link to="/login" className={buttonClasses({ variant: 'ghost', size: 'lg', className: 'w-full' })}>
          {t('verify.error.login')}
        </Link>
      </div>
    </AuthLayout>
  )
}
