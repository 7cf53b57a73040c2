import { zodResolver } from '@hookform/resolvers/zod'
import { MESSAGES, ZRegisterForm } from '@circles/shared'
import { MailCheck } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link, useNavigate } from 'react-router'
import { Alert } from '@/components/ui/alert'
import { buttonClasses } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Form } from '@/components/ui/form'
import { translateServerError } from '@/lib/server-errors'
import {
  invitationEmail,
  pendingInvitationToken,
  returnUrl,
  startSession,
  verificationEmail,
} from '@/lib/session'
import { useRegister } from '../api/register'
import { AuthLayout } from '../components/auth-layout'
import { InvitationNotice } from '../components/invitation-notice'
import { Emphasized } from '../components/emphasized'
import { SubmitButton } from '../components/submit-button'
import { TextLink } from '../components/text-link'
import { failureMessage, isApiError } from '../lib/api-errors'
import { dismissValidationToast, fieldErrorText, toastFirstError } from '../lib/form-errors'
import { safeReturnPath } from '../lib/redirects'
import { useAuthTranslation } from '../lib/use-auth-translation'
import { useClientSearchParams } from '../lib/use-client-search-params'
import { EmailInput, AuthPasswordInput } from '../components/auth-inputs'

const FIELD_ORDER = ['name', 'email', 'password', 'confirmPassword'] as const
const resolver = zodResolver(ZRegisterForm)

type Failure = { kind: 'userExists' } | { kind: 'invitationNotVerified' } | { kind: 'message'; text: string }

/** /register (spec 000 §2): an invitation link may bring its token and the invited address along. */
export function RegisterPage() {
  const { t, language } = useAuthTranslation()
  const navigate = useNavigate()
  const params = useClientSearchParams()
  const invitedEmail = params?.get('email')?.trim() || null
  const invitationToken = (params?.get('invitation_token') ?? params?.get('token'))?.trim() || null

  const [failure, setFailure] = useState<Failure | null>(null)
  const [awaitingVerification, setAwaitingVerification] = useState<string | null>(null)
  const registration = useRegister()
  // No text defaults: RHF then adopts whatever was typed into the prerendered inputs before hydration.
  const form = useForm({ resolver })
  const { register, handleSubmit, setValue } = form
  const { errors } = form.formState

  // The invited address is the only one the invitation accepts; it arrives in the query after hydration.
  useEffect(() => {
    if (invitedEmail) setValue('email', invitedEmail)
  }, [invitedEmail, setValue])

  const onSubmit = handleSubmit(
    (values) => {
      dismissValidationToast()
      setFailure(null)
      registration.mutate(
        {
          name: values.name,
          email: values.email,
          password: values.password,
          language: language === 'de' ? 'de' : 'en',
          ...(invitationToken ? { invitationToken } : {}),
        },
        {
          onSuccess: (answer) => {
            if (answer.requiresVerification || !answer.token || !answer.user) {
              // No auto-login (spec 000 §4); the resend page will know the address.
              verificationEmail.set(values.email)
              if (invitationToken) setFailure({ kind: 'invitationNotVerified' })
              else setAwaitingVerification(values.email)
              return
            }
            startSession(answer.token, answer.user)
            const back = safeReturnPath(returnUrl.get())
            returnUrl.clear()
            void navigate(back ?? '/dashboard', { replace: true })
          },
          onError: (error) => {
            if (isApiError(error, { code: 'USER_EXISTS' })) {
              setFailure({ kind: 'userExists' })
            } else if (isApiError(error, { code: 'INVALID_INVITATION' })) {
              pendingInvitationToken.clear()
              invitationEmail.clear()
              setFailure({ kind: 'message', text: translateServerError(MESSAGES.invalidInvitation) })
            } else {
              setFailure({ kind: 'message', text: failureMessage(error) ?? t('register.failed') })
            }
          },
        },
      )
    },
    (fieldErrors) => toastFirstError(fieldErrors, FIELD_ORDER, t),
  )

  if (awaitingVerification) {
    return (
      <AuthLayout
        documentTitle={t('register.documentTitle')}
        title={t('register.success.title')}
        icon={<MailCheck aria-hidden="true" />}
        iconTone="success"
        focusKey="verify"
        intro={
          <div className="flex flex-col gap-2">
            <p>{translateServerError(MESSAGES.registrationNeedsVerification)}</p>
            <p>
              <Emphasized
                translate={(email) => t('register.success.sentTo', { email })}
                value={awaitingVerification}
              />
            </p>
          </div>
        }
      >
        <div className="flex flex-col items-center gap-4">
          <Link to="/login" className={buttonClasses({ size: 'lg', className: 'w-full' })}>
            {t('register.success.login')}
          </Link>
          <TextLink to="/resend-verification" className="text-sm">
            {t('register.success.resend')}
          </TextLink>
        </div>
      </AuthLayout>
    )
  }

  return (
    <AuthLayout
      documentTitle={t('register.documentTitle')}
      title={t('register.title')}
      intro={t('register.intro')}
      footer={
        <>
          {t('register.haveAccount')} <TextLink to="/login">{t('register.login')}</TextLink>
        </>
      }
    >
      <Form
        form={form}
        onSubmit={onSubmit}
        className="flex flex-col gap-5"
        offlineReason={t('offline.register')}
      >
        {invitationToken ? <InvitationNotice token={invitationToken} page="register" /> : null}

        <FormField label={t('fields.name')} error={fieldErrorText(errors.name?.message, t)}>
          {(field) => <Input {...field} autoComplete="name" {...register('name')} />}
        </FormField>

        <FormField
          label={t('fields.email')}
          error={fieldErrorText(errors.email?.message, t)}
          hint={invitedEmail ? t('register.emailFromInvitation') : undefined}
        >
          {(field) => <EmailInput {...field} readOnly={Boolean(invitedEmail)} {...register('email')} />}
        </FormField>

        <FormField
          label={t('fields.password')}
          error={fieldErrorText(errors.password?.message, t)}
          hint={t('fields.passwordHint')}
        >
          {(field) => <AuthPasswordInput {...field} autoComplete="new-password" {...register('password')} />}
        </FormField>

        <FormField
          label={t('fields.confirmPassword')}
          error={fieldErrorText(errors.confirmPassword?.message, t)}
        >
          {(field) => (
            <AuthPasswordInput {...field} autoComplete="new-password" {...register('confirmPassword')} />
          )}
        </FormField>

        {failure?.kind === 'userExists' ? (
          <Alert tone="error" action={<TextLink to="/login">{t('register.userExistsAction')}</TextLink>}>
            {translateServerError(MESSAGES.userExists)}
          </Alert>
        ) : null}
        {failure?.kind === 'invitationNotVerified' ? (
          <Alert
            tone="error"
            action={<TextLink to="/resend-verification">{t('register.success.resend')}</TextLink>}
          >
            {t('register.invitationNotVerified')}
          </Alert>
        ) : null}
        {failure?.kind === 'message' ? <Alert tone="error">{failure.text}</Alert> : null}

        <SubmitButton className="w-full" loading={registration.isPending}>
          {t('register.submit')}
        </SubmitButton>
      </Form>
    </AuthLayout>
  )
}
