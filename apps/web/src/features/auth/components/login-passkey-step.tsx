import { Fingerprint } from 'lucide-react'
import type { Ref } from 'react'
import { Button } from '@/components/ui/button'
import { useAuthTranslation } from '../lib/use-auth-translation'
import { SubmitButton } from './submit-button'

interface LoginPasskeyStepProps {
  /** Focus lands on the passkey button when this mode opens. */
  buttonRef: Ref<HTMLButtonElement>
  pending: boolean
  onCancel: () => void
}

/** Passkey mode: what will happen, the login button, cancel. */
export function LoginPasskeyStep({ buttonRef, pending, onCancel }: LoginPasskeyStepProps) {
  const { t } = useAuthTranslation()
  return (
    <>
      <p className="text-sm text-fg-muted">{t('login.passkeyHint')}</p>
      <div className="flex flex-col gap-2">
        <SubmitButton
          ref={buttonRef}
          className="w-full"
          icon={<Fingerprint aria-hidden="true" />}
          loading={pending}
        >
          {t('login.passkeySubmit')}
        </SubmitButton>
        <Button variant="ghost" size="lg" className="w-full" onClick={onCancel}>
          {t('login.cancel')}
        </Button>
      </div>
    </>
  )
}
