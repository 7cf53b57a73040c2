import { zodResolver } from '@hookform/resolvers/zod'
import { MESSAGES, ZEmailRequest } from '@circles/shared'
import { ArrowLeft, MailCheck } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link } from 'react-router'
import { Alert } from '@/components/ui/alert'
import { Button, buttonClasses } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Form } from '@/components/ui/form'
import { translateServerError } from '@/lib/server-errors'
import { useRequestPasswordReset } from '../api/request-password-reset'
import { AuthLayout } from '../components/auth-layout'
import { SubmitButton } from '../components/submit-button'
import { TextLink } from '../components/text-link'
import { failureMessage } from '../lib/api-errors'
import { dismissValidationToast, fieldErrorText, toastFirstError } from '../lib/form-errors'
import { useAuthTranslation } from '../lib/use-auth-translation'
import { EmailInput } from '../components/auth-inputs'

const resolver = zodResolver(ZEmailRequest)

/** /forgot-password (spec 000 §2, §4): form, submitting, sent; "try a different email" goes back. */
export function ForgotPasswordPage() {
  const { t } = useAuthTranslation()
  const [sent, setSent] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const requestReset = useRequestPasswordReset()
  // No text defaults: RHF then adopts whatever was typed into the prerendered inputs before hydration.
  const form = useForm({ resolver })
  const { register, handleSubmit, reset, setFocus } = form
  const { errors } = form.formState

  // Back from "sent" to the form: the cursor waits in the (now empty) email field.
  const wasSent = useRef(sent)
  useEffect(() => {
    if (wasSent.current && !sent) setFocus('email')
    wasSent.current = sent
  }, [sent, setFocus])

  const onSubmit = handleSubmit(
    (values) => {
      dismissValidationToast()
      setFailure(null)
      requestReset.mutate(values, {
        onSuccess: () => setSent(true),
        onError: (error) => setFailure(failureMessage(error) ?? t('forgot.failed')),
      })
    },
    (fieldErrors) => toastFirstError(fieldErrors, ['email'], t),
  )

  const tryAnotherEmail = () => {
    reset({ email: '' })
    requestReset.reset()
    setSent(false)
  }

  if (sent) {
    return (
      <AuthLayout
        documentTitle={t('forgot.documentTitle')}
        title={t('forgot.sent.title')}
        icon={<MailCheck aria-hidden="true" />}
        iconTone="success"
        focusKey="sent"
        intro={
          <div className="flex flex-col gap-2">
            <p>{translateServerError(MESSAGES.resetRequested)}</p>
            <p>{t('forgot.sent.expires')}</p>
          </div>
        }
      >
        <div className="flex flex-col gap-2">
          <Link to="/login" className={buttonClasses({ size: 'lg', className: 'w-full' })}>
            {t('forgot.backToLogin')}
          </Link>
          <Button variant="ghost" size="lg" className="w-full" onClick={tryAnotherEmail}>
            {t('forgot.sent.tryAgain')}
          </Button>
        </div>
      </AuthLayout>
    )
  }

  return (
    <AuthLayout
      documentTitle={t('forgot.documentTitle')}
      title={t('forgot.title')}
      intro={t('forgot.intro')}
      focusKey="form"
      footer={
        <TextLink to="/login" className="inline-flex items-center gap-1.5">
          <ArrowLeft aria-hidden="true" className="size-4 rtl:rotate-180" />
          {t('forgot.backToLogin')}
        </TextLink>
      }
    >
      <Form form={form} onSubmit={onSubmit} className="flex flex-col gap-5">
        <FormField label={t('fields.email')} error={fieldErrorText(errors.email?.message, t)}>
          {(field) => <EmailInput {...field} {...register('email')} />}
        </FormField>
        {failure ? <Alert tone="error">{failure}</Alert> : null}
        <SubmitButton className="w-full" loading={requestReset.isPending}>
          {t('forgot.submit')}
        </SubmitButton>
      </Form>
    </AuthLayout>
  )
}
