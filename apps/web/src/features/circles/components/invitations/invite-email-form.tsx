import { zodResolver } from '@hookform/resolvers/zod'
import { ZInviteRequest, type TInviteRequest } from '@circles/shared'
import type { ReactNode } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import type { z } from 'zod'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { dismissValidationToast, showValidationToast } from '@/lib/form-errors'
import { translateServerError } from '@/lib/server-errors'

const resolver = zodResolver(ZInviteRequest)
type InviteOutput = z.output<typeof ZInviteRequest>

interface InviteEmailFormProps {
  label: string
  /** Disables the field while the call runs. */
  pending: boolean
  onSubmit(email: string): void
  /** The buttons; the first submit button sends the form. */
  actions: ReactNode
  /** Under the field, e.g. the server's refusal. */
  footer?: ReactNode
}

/** The one email field both panels ask for (ZInviteRequest: required, then a valid address). */
export function InviteEmailForm({ label, pending, onSubmit, actions, footer }: InviteEmailFormProps) {
  const { t } = useTranslation('invitations')
  const form = useForm<TInviteRequest, unknown, InviteOutput>({ resolver, defaultValues: { email: '' } })
  const message = form.formState.errors.email?.message

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
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <FormField label={label} error={message ? translateServerError(message) : undefined}>
        {(field) => (
          <Input
            {...field}
            type="email"
            inputMode="email"
            autoComplete="off"
            spellCheck={false}
            autoFocus
            readOnly={pending}
            placeholder={t('admin.email.placeholder')}
            {...form.register('email')}
          />
        )}
      </FormField>
      {footer}
      <div className="flex flex-col gap-2 @xs:flex-row @xs:flex-wrap">{actions}</div>
    </form>
  )
}
