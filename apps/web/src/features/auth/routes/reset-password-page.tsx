import { zodResolver } from '@hookform/resolvers/zod'
import { MESSAGES, TIMINGS, ZResetPasswordForm } from '@circles/shared'
import { CircleCheck, Link2Off } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link, useNavigate } from 'react-router'
import { Alert } from '@/components/ui/alert'
import { buttonClasses } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Form } from '@/components/ui/form'
import { translateServerError } from '@/lib/server-errors'
import { useResetPassword } from '../api/reset-password'
import { useVerifyResetToken } from '../api/verify-reset-token'
import { AuthLayout } from '../components/auth-layout'
import { CheckingState } from '../components/checking-state'
import { SubmitButton } from '../components/submit-button'
import { failureMessage, isApiError } from '../lib/api-errors'
import { dismissValidationToast, fieldErrorText, toastFirstError, toastFormMessage } from '../lib/form-errors'
import { useAuthTranslation } from '../lib/use-auth-translation'
import { useClientSearchParams } from '../lib/use-client-search-params'
import { AuthPasswordInput } from '../components/auth-inputs'

const FIELD_ORDER = ['newPassword', 'confirmPassword'] as const
const resolver = zodResolver(ZResetPasswordForm)
const LOGIN_AFTER_RESET = '/login?message=password-reset-success'

/** /reset-password?token= (spec 000 §2, §4): check the link, then the form, then back to login. */
export function ResetPasswordPage() {
  const { t } = useAuthTranslation()
  const navigate = useNavigate()
  const params = useClientSearchParams()
  const token = params ? params.get('token')?.trim() || null : undefined
  const check = useVerifyResetToken(token ?? null)
  const [linkRejected, setLinkRejected] = useState(false)
  const [done, setDone] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const resetPassword = useResetPassword()
  const form = useForm({ resolver, defaultValues: { newPassword: '', confirmPassword: '' } })
  const { register, handleSubmit } = form
  const { errors } = form.formState

  useEffect(() => {
    if (!done) return
    const timer = setTimeout(
      () => void navigate(LOGIN_AFTER_RESET, { replace: true }),
      TIMINGS.redirectAfterPasswordResetMs,
    )
    return () => clearTimeout(timer)
  }, [done, navigate])

  const documentTitle = t('reset.documentTitle')

  if (token === undefined || (token && check.isPending && !done)) {
    return <CheckingState documentTitle={documentTitle} title={t('reset.checking')} />
  }

  if (done) {
    return (
      <AuthLayout
        documentTitle={documentTitle}
        title={t('reset.success.title')}
        icon={<CircleCheck aria-hidden="true" />}
        iconTone="success"
        focusKey="done"
        intro={
          <div className="flex flex-col gap-2">
            <p>{translateServerError(MESSAGES.resetSuccess)}</p>
            <p>{t('reset.success.redirect')}</p>
          </div>
        }
      >
        <Link to={LOGIN_AFTER_RESET} replace className={buttonClasses({ size: 'lg', className: 'w-full' })}>
          {t('reset.success.goToLogin')}
        </Link>
      </AuthLayout>
    )
  }

  if (!token || check.isError || linkRejected) {
    return (
      <AuthLayout
        documentTitle={documentTitle}
        title={t('reset.invalid.title')}
        icon={<Link2Off aria-hidden="true" />}
        iconTone="danger"
        focusKey="invalid"
        intro={translateServerError(MESSAGES.resetLinkInvalid)}
      >
        <div className="flex flex-col gap-2">
          <Link to="/forgot-password" className={buttonClasses({ size: 'lg', className: 'w-full' })}>
            {t('reset.invalid.requestNew')}
          </Link>
          <Link to="/login" className={buttonClasses({ variant: 'ghost', size: 'lg', className: 'w-full' })}>
            {t('reset.invalid.login')}
          </Link>
        </div>
      </AuthLayout>
    )
  }

  const onSubmit = handleSubmit(
    (values) => {
      dismissValidationToast()
      setFailure(null)
      if (!token) return toastFormMessage(MESSAGES.resetTokenInvalid, t)
      resetPassword.mutate(
        { token, ...values },
        {
          onSuccess: () => setDone(true),
          onError: (error) => {
            // Used or expired since the page opened: the same dead end as a bad link.
            if (isApiError(error, { code: 'INVALID_TOKEN' })) setLinkRejected(true)
            else setFailure(failureMessage(error) ?? t('reset.failed'))
          },
        },
      )
    },
    (fieldErrors) => toastFirstError(fieldErrors, FIELD_ORDER, t),
  )

  return (
    <AuthLayout
      documentTitle={documentTitle}
      title={t('reset.title')}
      intro={t('reset.intro')}
      focusKey="form"
    >
      <Form form={form} onSubmit={onSubmit} className="flex flex-col gap-5">
        <FormField
          label={t('fields.newPassword')}
          error={fieldErrorText(errors.newPassword?.message, t)}
          hint={t('fields.passwordHint')}
        >
          {(field) => (
            <AuthPasswordInput {...field} autoComplete="new-password" {...register('newPassword')} />
          )}
        </FormField>
        <FormField
          label={t('fields.confirmNewPassword')}
          error={fieldErrorText(errors.confirmPassword?.message, t)}
        >
          {(field) => (
            <AuthPasswordInput {...field} autoComplete="new-password" {...register('confirmPassword')} />
          )}
        </FormField>
        {failure ? <Alert tone="error">{failure}</Alert> : null}
        <SubmitButton className="w-full" loading={resetPassword.isPending}>
          {t('reset.submit')}
        </SubmitButton>
      </Form>
    </AuthLayout>
  )
}
