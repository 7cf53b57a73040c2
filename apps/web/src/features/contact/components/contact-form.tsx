import { zodResolver } from '@hookform/resolvers/zod'
import { CONTACT_SUBJECTS, ZContactRequest } from '@circles/shared'
import { CircleAlert, CircleCheck, Send } from 'lucide-react'
import { useEffect, useRef } from 'react'
import { useForm, type FieldErrors } from 'react-hook-form'
import { Trans, useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { Form } from '@/components/ui/form'
import { Input } from '@/components/ui/input'
import { Select } from '@/components/ui/select'
import { Textarea } from '@/components/ui/textarea'
import { notify } from '@/lib/notify'
import { translateServerError } from '@/lib/server-errors'
import { useSendContactMessage } from '../api/send-contact-message'
import { useHydrated } from '@/lib/use-hydrated'
import { ContactField } from './contact-field'

type ContactFormValues = { name: string; email: string; subject: string; message: string }

/** The order the fields appear in, which is also the order their errors are reported in. */
export const CONTACT_FIELDS = ['name', 'email', 'subject', 'message'] as const

const EMPTY: ContactFormValues = { name: '', email: '', subject: '', message: '' }

/** The first error in field order: the one the toast shows (spec 000 §5, like the login form). */
export function firstContactError(errors: FieldErrors<ContactFormValues>): string | undefined {
  for (const field of CONTACT_FIELDS) {
    const message = errors[field]?.message
    if (message) return message
  }
  return undefined
}

/**
 * The contact form (spec 000 §2): editing → sending → sent. Validation is the shared ZContactRequest,
 * so the client reports exactly what the server would: first that every field is filled in, then
 * each field's own rule.
 */
export function ContactForm() {
  const { t } = useTranslation('contact')
  const sending = useSendContactMessage()
  // The form is sent by script only: before the page has hydrated, submitting would put the message into the URL.
  const interactive = useHydrated()
  const sentHeading = useRef<HTMLHeadingElement>(null)
  const form = useForm<ContactFormValues, unknown, ContactFormValues>({
    resolver: zodResolver(ZContactRequest),
    defaultValues: EMPTY,
  })
  const {
    register,
    handleSubmit,
    reset,
    setFocus,
    formState: { errors },
  } = form

  const sent = sending.isSuccess
  useEffect(() => {
    // Tell screen readers (and keyboard users) where they are after the form disappears.
    if (sent) sentHeading.current?.focus()
  }, [sent])

  const onValid = (values: ContactFormValues) => {
    sending.mutate(values, { onError: () => notify.error(t('error')) })
  }
  const onInvalid = (fieldErrors: FieldErrors<ContactFormValues>) => {
    const first = firstContactError(fieldErrors)
    if (first) notify.error(translateServerError(first))
  }
  const sendAnother = () => {
    reset(EMPTY)
    sending.reset()
    // The form is back on the next render; then the first field takes the focus.
    setTimeout(() => setFocus('name'), 0)
  }
  const errorText = (field: keyof ContactFormValues) => {
    const message = errors[field]?.message
    return message ? translateServerError(message) : undefined
  }

  if (sent) {
    return (
      <div role="status" className="flex flex-col items-start gap-4 py-6 sm:py-10">
        <span className="inline-flex size-12 items-center justify-center rounded-full bg-success-soft text-success">
          <CircleCheck className="size-6" aria-hidden="true" />
        </span>
        <h2
          ref={sentHeading}
          tabIndex={-1}
          className="text-lg font-semibold tracking-tight focus:outline-none"
        >
          {t('sent.title')}
        </h2>
        <p className="text-fg-muted">{t('contactSent', { ns: 'errors' })}</p>
        <Button variant="secondary" onClick={sendAnother}>
          {t('sent.sendAnother')}
        </Button>
      </div>
    )
  }

  return (
    <Form
      form={form}
      aria-label={t('form.label')}
      data-interactive={interactive || undefined}
      onSubmit={handleSubmit(onValid, onInvalid)}
    >
      <fieldset disabled={sending.isPending} className="flex flex-col gap-5">
        <p className="text-sm text-fg-muted">{t('form.requiredNote')}</p>
        <div className="grid gap-5 sm:grid-cols-2">
          <ContactField label={t('form.name')} error={errorText('name')}>
            {({ invalid, ...control }) => (
              <Input {...control} invalid={invalid} autoComplete="name" {...register('name')} />
            )}
          </ContactField>
          <ContactField label={t('form.email')} error={errorText('email')}>
            {({ invalid, ...control }) => (
              <Input
                {...control}
                invalid={invalid}
                type="email"
                inputMode="email"
                autoComplete="email"
                placeholder={t('form.emailPlaceholder')}
                {...register('email')}
              />
            )}
          </ContactField>
        </div>
        <ContactField label={t('form.subject')} error={errorText('subject')}>
          {({ invalid, ...control }) => (
            <Select {...control} invalid={invalid} {...register('subject')}>
              <option value="">{t('form.subjectPlaceholder')}</option>
              {CONTACT_SUBJECTS.map((subject) => (
                <option key={subject} value={subject}>
                  {t(`form.subjects.${subject}`)}
                </option>
              ))}
            </Select>
          )}
        </ContactField>
        <ContactField label={t('form.message')} hint={t('form.messageHint')} error={errorText('message')}>
          {({ invalid, ...control }) => (
            <Textarea
              {...control}
              invalid={invalid}
              rows={5}
              placeholder={t('form.messagePlaceholder')}
              {...register('message')}
            />
          )}
        </ContactField>

        {sending.isError ? (
          <p
            role="alert"
            className="flex items-start gap-2 rounded-md border border-danger/30 bg-danger-soft p-3 text-sm text-danger"
          >
            <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            {t('error')}
          </p>
        ) : null}

        <div className="flex flex-col-reverse gap-4 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-fg-muted">
            <Trans
              t={t}
              i18nKey="form.privacyNote"
              components={{
                privacy: (
                  <Link
                    to="/privacy"
                    className="font-medium text-accent-text underline decoration-accent/40 underline-offset-4 hover:decoration-accent"
                  />
                ),
              }}
            />
          </p>
          <Button
            type="submit"
            size="lg"
            disabled={!interactive}
            loading={sending.isPending}
            icon={<Send aria-hidden="true" />}
          >
            {t('form.submit')}
          </Button>
        </div>
      </fieldset>
    </Form>
  )
}
