import type { UseFormReturn } from 'react-hook-form'
import { Button } from '@/components/ui/button'
import { Checkbox } from '@/components/ui/checkbox'
import { FormField } from '@/components/ui/form-field'
import { fieldErrorText } from '../lib/form-errors'
import type { LoginContext, LoginValues } from '../lib/login-form'
import { useAuthTranslation } from '../lib/use-auth-translation'
import { SubmitButton } from './submit-button'
import { TextLink } from './text-link'
import { AuthPasswordInput } from './auth-inputs'

interface LoginPasswordStepProps {
  form: UseFormReturn<LoginValues, LoginContext>
  pending: boolean
  onCancel: () => void
}

/** Password mode: password (with forgot link), remember me, sign in, cancel. */
export function LoginPasswordStep({ form, pending, onCancel }: LoginPasswordStepProps) {
  const { t } = useAuthTranslation()
  const { register } = form
  const error = form.formState.errors.password?.message

  return (
    <>
      <FormField
        label={t('fields.password')}
        error={fieldErrorText(error, t)}
        labelAside={
          <TextLink to="/forgot-password" className="text-sm">
            {t('login.forgotPassword')}
          </TextLink>
        }
      >
        {(field) => (
          <AuthPasswordInput {...field} autoComplete="current-password" {...register('password')} />
        )}
      </FormField>
      <Checkbox
        label={t('login.rememberMe')}
        description={t('login.rememberMeHint')}
        {...register('rememberMe')}
      />
      <div className="flex flex-col gap-2">
        <SubmitButton className="w-full" loading={pending}>
          {t('login.submit')}
        </SubmitButton>
        <Button variant="ghost" size="lg" className="w-full" onClick={onCancel}>
          {t('login.cancel')}
        </Button>
      </div>
    </>
  )
}
