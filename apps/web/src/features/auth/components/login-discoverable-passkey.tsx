import { Fingerprint } from 'lucide-react'
import { useId } from 'react'
import { Button } from '@/components/ui/button'
import { useAuthTranslation } from '../lib/use-auth-translation'

interface LoginDiscoverablePasskeyProps {
  pending: boolean
  onClick: () => void
}

/**
 * Issue 24: sign in with a passkey without typing the email first. The browser lists the discoverable
 * passkeys this device holds for Circles; the server finds the account by the one chosen.
 */
export function LoginDiscoverablePasskey({ pending, onClick }: LoginDiscoverablePasskeyProps) {
  const { t } = useAuthTranslation()
  const hintId = useId()
  return (
    <div className="flex flex-col gap-2 border-t border-border pt-4">
      <Button
        variant="ghost"
        size="lg"
        className="w-full"
        icon={<Fingerprint aria-hidden="true" />}
        loading={pending}
        aria-describedby={hintId}
        onClick={onClick}
      >
        {t('login.passkeyWithoutEmail')}
      </Button>
      <p id={hintId} className="text-center text-xs text-fg-muted">
        {t('login.passkeyWithoutEmailHint')}
      </p>
    </div>
  )
}
