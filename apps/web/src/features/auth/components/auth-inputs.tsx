import { Input, type InputProps } from '@/components/ui/input'
import { PasswordInput, type PasswordInputProps } from '@/components/ui/password-input'
import { useAuthTranslation } from '../lib/use-auth-translation'

/** The email box of every sign-in form: the email keyboard, autofill, no autocorrect or capitals. */
export function EmailInput(props: Omit<InputProps, 'type'>) {
  const { t } = useAuthTranslation()
  return (
    <Input
      type="email"
      inputMode="email"
      autoComplete="email"
      autoCapitalize="none"
      spellCheck={false}
      placeholder={t('fields.emailPlaceholder')}
      {...props}
    />
  )
}

/** A password box with the show/hide toggle named in the page's language. */
export function AuthPasswordInput(props: Omit<PasswordInputProps, 'showLabel' | 'hideLabel'>) {
  const { t } = useAuthTranslation()
  return (
    <PasswordInput showLabel={t('fields.showPassword')} hideLabel={t('fields.hidePassword')} {...props} />
  )
}
