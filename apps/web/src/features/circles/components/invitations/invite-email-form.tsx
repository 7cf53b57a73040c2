import { zodResolver } from '@hookform/resolvers/zod'
import { ZInviteRequest, type TInviteRequest } from '@circles/shared'
import { type ReactNode, useEffect } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import type { z } from 'zod/mini'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Form } from '@/components/ui/form'
import { dismissValidationToast, showValidationToast } from '@/lib/form-errors'
import { translateServerError } from '@/lib/server-errors'

const resolver = zodResolver(ZInviteRequest)
type InviteOutput = z.output<typeof ZInviteRequest>

interface InviteEmailFormProps {
  label: string
  submitLabel: string
  submitIcon: ReactNode
  /** Keeps the field read-only and the submit button spinning while the call runs. */
  pending: boolean
  onSubmit(email: string): void
  onCancel(): void
  /** The server's refusal, shown under the field. */
  error?: string
}

/**
 * The form both panels show: one email field (ZInviteRequest: required, then a valid address), the
 * server's refusal if any, submit and cancel.
 */
export function InviteEmailForm({
  label,
  submitLabel,
  submitIcon,
  pending,
  onSubmit,
  onCancel,
  error,
}: InviteEmailFormProps) {
  const { t } = useTranslation('invitations')
  const form = useForm<TInviteRequest, unknown, InviteOutput>({ resolver, defaultValues: { email: '' } })
  const message = form.formState.errors.email?.message
  // The field takes the focus when the panel opens (React's autoFocus did; docs/decisions/0061).
  useEffect(() => form.setFocus('email'), [form])

  const submit = form.handleSubmit(
    (values) => {
      dismissValidationToast()
      onSubmit(values.email)
    },
    (errors) => {
      if (errors.email?.message) showValidationToast(translateServerError(errors.email.message))
    },
  )

  return (
    <Form form={form} onSubmit={submit} className="flex flex-col gap-4">
      <FormField label={label} error={message ? translateServerError(message) : undefined}>
        {(field) => (
          <Input
            {...field}
            type="email"
            inputMode="email"
            autoComplete="off"
            spellCheck={false}
            readOnly={pending}
            placeholder={t('admin.email.placeholder')}
            {...form.register('email')}
          />
        )}
      </FormField>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="flex flex-col gap-2 @xs:flex-row @xs:flex-wrap">
        <Button type="submit" loading={pending} icon={submitIcon}>
          {submitLabel}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          {t('admin.email.cancel')}
        </Button>
      </div>
    </Form>
  )
}
