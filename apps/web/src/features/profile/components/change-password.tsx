import { zodResolver } from '@hookform/resolvers/zod'
import { MESSAGES, type TChangePasswordForm, ZChangePasswordForm } from '@circles/shared'
import { KeyRound } from 'lucide-react'
import { type ReactNode, useEffect, useId, useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Form } from '@/components/ui/form'
import { FormField } from '@/components/ui/form-field'
import { PasswordInput, type PasswordInputProps } from '@/components/ui/password-input'
import { failureKey, failureMessage, translateServerError } from '@/lib/server-errors'
import { useChangePassword } from '../api/change-password'

const resolver = zodResolver(ZChangePasswordForm)
const EMPTY: TChangePasswordForm = { currentPassword: '', newPassword: '', confirmPassword: '' }

function ProfilePasswordInput(props: Omit<PasswordInputProps, 'showLabel' | 'hideLabel'>) {
  const { t } = useTranslation('profile')
  return (
    <PasswordInput showLabel={t('changePassword.show')} hideLabel={t('changePassword.hide')} {...props} />
  )
}

function ChangePasswordForm({
  email,
  onCancel,
  onChanged,
}: {
  email: string
  onCancel(): void
  onChanged(): void
}) {
  const { t } = useTranslation('profile')
  const headingId = useId()
  const change = useChangePassword()
  const [failure, setFailure] = useState<string | null>(null)
  const form = useForm<TChangePasswordForm>({ resolver, defaultValues: EMPTY })
  const { register, handleSubmit, setError, setFocus } = form
  const { errors } = form.formState
  const fieldError = (message: string | undefined) => (message ? translateServerError(message) : undefined)

  useEffect(() => setFocus('currentPassword'), [setFocus])

  const onSubmit = handleSubmit((values) => {
    setFailure(null)
    change.mutate(values, {
      onSuccess: onChanged,
      onError: (error) => {
        if (failureKey(error) === 'currentPasswordWrong') {
          setError('currentPassword', { message: MESSAGES.currentPasswordWrong }, { shouldFocus: true })
        } else {
          setFailure(failureMessage(error, t('changePassword.failed')))
        }
      },
    })
  })

  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-4 rounded-lg border border-border p-4 sm:p-5"
    >
      <div>
        <h3 id={headingId} className="text-base font-semibold text-fg">
          {t('changePassword.title')}
        </h3>
        <p className="mt-1 text-sm text-fg-muted">{t('changePassword.intro')}</p>
      </div>
      <Form form={form} onSubmit={onSubmit} className="flex max-w-md flex-col gap-4">
        {/* For password managers: whose password this is. */}
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <FormField label={t('changePassword.current')} error={fieldError(errors.currentPassword?.message)}>
          {(field) => (
            <ProfilePasswordInput
              {...field}
              autoComplete="current-password"
              {...register('currentPassword')}
            />
          )}
        </FormField>
        <FormField
          label={t('changePassword.new')}
          error={fieldError(errors.newPassword?.message)}
          hint={t('changePassword.hint')}
        >
          {(field) => (
            <ProfilePasswordInput {...field} autoComplete="new-password" {...register('newPassword')} />
          )}
        </FormField>
        <FormField label={t('changePassword.confirm')} error={fieldError(errors.confirmPassword?.message)}>
          {(field) => (
            <ProfilePasswordInput {...field} autoComplete="new-password" {...register('confirmPassword')} />
          )}
        </FormField>
        {failure ? <Alert tone="error">{failure}</Alert> : null}
        <div className="flex gap-2">
          <Button type="submit" loading={change.isPending}>
            {t('changePassword.save')}
          </Button>
          <Button variant="ghost" onClick={onCancel} disabled={change.isPending}>
            {t('changePassword.cancel')}
          </Button>
        </div>
      </Form>
    </section>
  )
}

/**
 * Change password (issue 24, docs/decisions/0039) for the 'Security & Access' tab: the button that
 * belongs in the password row, and the panel under it (the inline form, or the success banner). The
 * tab places both; the state lives here.
 */
export function ChangePassword({
  email,
  children,
}: {
  email: string
  children(parts: { button: ReactNode; panel: ReactNode }): ReactNode
}) {
  const { t } = useTranslation('profile')
  const [state, setState] = useState<'closed' | 'open' | 'changed'>('closed')
  const buttonRef = useRef<HTMLButtonElement>(null)
  const returnFocus = useRef(false)

  useEffect(() => {
    if (state === 'open' || !returnFocus.current) return
    returnFocus.current = false
    buttonRef.current?.focus()
  }, [state])

  const close = (next: 'closed' | 'changed') => {
    returnFocus.current = true
    setState(next)
  }

  const button =
    state === 'open' ? null : (
      <Button
        ref={buttonRef}
        variant="secondary"
        size="sm"
        icon={<KeyRound aria-hidden="true" />}
        onClick={() => setState('open')}
      >
        {t('changePassword.open')}
      </Button>
    )
  let panel: ReactNode = null
  if (state === 'open')
    panel = (
      <ChangePasswordForm email={email} onCancel={() => close('closed')} onChanged={() => close('changed')} />
    )
  else if (state === 'changed')
    panel = <Alert tone="success">{translateServerError(MESSAGES.passwordChanged)}</Alert>
  return children({ button, panel })
}
