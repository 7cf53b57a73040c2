import { zodResolver } from '@hookform/resolvers/zod'
import { MESSAGES, ZEmailRequest } from '@circles/shared'
import { ArrowLeft, MailCheck } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link } from 'react-router'
import { Alert } from '@/components/ui/alert'
import { buttonClasses } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Form } from '@/components/ui/form'
import { translateServerError } from '@/lib/server-errors'
import { verificationEmail } from '@/lib/session'
import { useResendVerification } from '../api/resend-verification'
import { AuthLayout } from '../components/auth-layout'
import { Emphasized } from '../components/emphasized'
import { SubmitButton } from '../components/submit-button'
import { TextLink } from '../components/text-link'
import { failureMessage, isApiError } from '../lib/api-errors'
import { formatCountdown, retryAfterSeconds } from '../lib/countdown'
import { dismissValidationToast, fieldErrorText, toastFirstError } from '../lib/form-errors'
import { useAuthTranslation } from '../lib/use-auth-translation'
import { useCountdown } from '../lib/use-countdown'
import { EmailInput } from '../components/auth-inputs'

const resolver = zodResolver(ZEmailRequest)

/** /resend-verification (spec 000 §2, §4): idle, sending, sent; a 429 starts a mm:ss countdown. */
export function ResendVerificationPage() {
  const { t } = useAuthTranslation()
  const [sentTo, setSentTo] = useState<string | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const { remaining, start } = useCountdown()
  const resend = useResendVerification()
  // No text defaults: RHF then adopts whatever was typed into the prerendered inputs before hydration.
  const form = useForm({ resolver })
  const { register, handleSubmit, setValue } = form
  const { errors } = form.formState

  // The address stored by a refused login or a registration prefills the field, once (spec 000 §2).
  useEffect(() => {
    const stored = verificationEmail.get()
    if (!stored) return
    setValue('email', stored)
    verificationEmail.clear()
  }, [setValue])

  const waiting = remaining > 0

  const onSubmit = handleSubmit(
    (values) => {
      dismissValidationToast()
      setFailure(null)
      resend.mutate(values, {
        onSuccess: () => setSentTo(values.email),
        onError: (error) => {
          if (isApiError(error, { status: 429 })) start(retryAfterSeconds(error))
          else setFailure(failureMessage(error) ?? t('resend.failed'))
        },
      })
    },
    (fieldErrors) => toastFirstError(fieldErrors, ['email'], t),
  )

  if (sentTo) {
    return (
      <AuthLayout
        documentTitle={t('resend.documentTitle')}
        title={translateServerError(MESSAGES.verificationSent)}
        icon={<MailCheck aria-hidden="true" />}
        iconTone="success"
        focusKey="sent"
        intro={
          <div className="flex flex-col gap-2">
            <p>
              <Emphasized translate={(email) => t('resend.sent.body', { email })} value={sentTo} />
            </p>
            <p>{t('resend.sent.expires')}</p>
          </div>
        }
      >
        <Link to="/login" className={buttonClasses({ size: 'lg', className: 'w-full' })}>
          {t('resend.sent.backToLogin')}
        </Link>
      </AuthLayout>
    )
  }

  return (
    <AuthLayout
      documentTitle={t('resend.documentTitle')}
      title={t('resend.title')}
      intro={t('resend.intro')}
      footer={
        <TextLink to="/login" className="inline-flex items-center gap-1.5">
          <ArrowLeft aria-hidden="true" className="size-4 rtl:rotate-180" />
          {t('resend.backToLogin')}
        </TextLink>
      }
    >
      <Form form={form} onSubmit={onSubmit} className="flex flex-col gap-5">
        <FormField label={t('fields.email')} error={fieldErrorText(errors.email?.message, t)}>
          {(field) => <EmailInput {...field} {...register('email')} />}
        </FormField>
        {waiting ? (
          <Alert tone="warning">{translateServerError(MESSAGES.tooManyVerificationRequests)}</Alert>
        ) : null}
        {failure ? <Alert tone="error">{failure}</Alert> : null}
        <SubmitButton className="w-full" loading={resend.isPending} disabled={waiting}>
          {waiting ? t('resend.wait') : t('resend.submit')}
        </SubmitButton>
        {waiting ? (
          // A timer is not a live region: it would read out every second.
          <p role="timer" className="-mt-2 text-center text-sm text-fg-muted tabular-nums">
            {t('resend.retryIn', { time: formatCountdown(remaining) })}
          </p>
        ) : null}
      </Form>
    </AuthLayout>
  )
}
