import { TIMINGS, type TUser } from '@circles/shared'
import { CircleCheck, CircleAlert, Fingerprint } from 'lucide-react'
import { type ReactNode, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardDescription, CardTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { Spinner } from '@/components/ui/spinner'
import { notify } from '@/lib/notify'
import { passkeysSupported } from '@/lib/passkeys'
import { failureMessage } from '@/lib/server-errors'
import { ChangePassword } from './change-password'
import { RegistrationError, useDeletePasskey, usePasskeys, useRegisterPasskey } from '../api/profile'
import { PasskeyRow } from './passkey-row'
import { WitnessDevices } from './witness-devices'

function Passkeys() {
  const { t } = useTranslation('profile')
  const supported = passkeysSupported()
  const passkeys = usePasskeys(supported)
  const register = useRegisterPasskey()
  const remove = useDeletePasskey()
  const [deleting, setDeleting] = useState<string | null>(null)
  const [success, setSuccess] = useState(false)

  // The success message goes after 5 s (spec 001 §9).
  useEffect(() => {
    if (!success) return
    const timer = setTimeout(() => setSuccess(false), TIMINGS.passkeySuccessMs)
    return () => clearTimeout(timer)
  }, [success])

  const onRegister = () => {
    setSuccess(false)
    register.mutate(undefined, {
      onSuccess: () => setSuccess(true),
      onError: (error) =>
        notify.error(
          error instanceof RegistrationError
            ? error.reason === 'unsupported'
              ? t('security.unsupported')
              : t(`security.errors.${error.reason}`)
            : failureMessage(error, t('security.errors.failed')),
        ),
    })
  }
  const confirmDelete = () => {
    if (!deleting) return
    remove.mutate(deleting, {
      onSuccess: () => setDeleting(null),
      onError: () => {
        setDeleting(null)
        notify.error(t('security.deleteFailed'))
      },
    })
  }

  let list
  if (!supported) list = <Alert tone="info">{t('security.unsupported')}</Alert>
  else if (passkeys.isPending) list = <Spinner label={t('security.passkeys')} />
  else if (passkeys.isError) list = <Alert tone="error">{t('security.loadFailed')}</Alert>
  else if (passkeys.data.length === 0)
    list = <p className="py-3 text-sm text-fg-muted">{t('security.empty')}</p>
  else {
    list = (
      <ul aria-label={t('security.passkeys')} className="divide-y divide-border">
        {passkeys.data.map((passkey) => (
          <PasskeyRow key={passkey.id} passkey={passkey} onDelete={() => setDeleting(passkey.id)} />
        ))}
      </ul>
    )
  }

  return (
    <section aria-labelledby="passkeys-heading" className="flex flex-col gap-3 border-t border-border pt-5">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h3 id="passkeys-heading" className="text-base font-semibold text-fg">
            {t('security.passkeys')}
          </h3>
          <p className="mt-1 text-sm text-fg-muted">{t('security.passkeysIntro')}</p>
        </div>
        {supported ? (
          <Button
            className="shrink-0 self-start"
            icon={<Fingerprint aria-hidden="true" />}
            loading={register.isPending}
            onClick={onRegister}
          >
            {t('security.register')}
          </Button>
        ) : null}
      </div>
      {success ? <Alert tone="success">{t('security.registered')}</Alert> : null}
      {list}
      <ConfirmDialog
        open={deleting !== null}
        title={t('security.deleteTitle')}
        description={t('security.deleteBody')}
        confirmLabel={t('security.deleteConfirm')}
        cancelLabel={t('security.deleteCancel')}
        tone="danger"
        pending={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </section>
  )
}

/** Tab 'Security & Access' (spec 001 §2): verification, the password (masked), passkeys. */
export function SecurityAccess({ user }: { user: TUser }) {
  return (
    <ChangePassword email={user.email}>
      {(changePassword) => <SecurityAccessCard user={user} changePassword={changePassword} />}
    </ChangePassword>
  )
}

function SecurityAccessCard({
  user,
  changePassword,
}: {
  user: TUser
  changePassword: { button: ReactNode; panel: ReactNode }
}) {
  const { t } = useTranslation('profile')
  return (
    <Card className="flex flex-col gap-5 p-5 sm:p-6">
      <div>
        <CardTitle>{t('security.title')}</CardTitle>
        <CardDescription>{t('security.intro')}</CardDescription>
      </div>
      <dl className="divide-y divide-border">
        <div className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:gap-6">
          <dt className="w-40 shrink-0 text-sm text-fg-muted">{t('security.verification')}</dt>
          <dd>
            {user.emailVerified ? (
              <Badge tone="success">
                <CircleCheck aria-hidden="true" className="me-1 size-3.5" />
                {t('security.verified')}
              </Badge>
            ) : (
              <Badge tone="warning">
                <CircleAlert aria-hidden="true" className="me-1 size-3.5" />
                {t('security.notVerified')}
              </Badge>
            )}
          </dd>
        </div>
        <div className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:gap-6">
          <dt className="w-40 shrink-0 text-sm text-fg-muted">{t('security.password')}</dt>
          <dd className="font-mono text-sm tracking-widest text-fg" aria-label={t('security.passwordMasked')}>
            ••••••••
          </dd>
          {changePassword.button ? (
            <dd className="mt-2 sm:ms-auto sm:mt-0">{changePassword.button}</dd>
          ) : null}
        </div>
      </dl>
      {changePassword.panel}
      <Passkeys />
      <WitnessDevices userId={user.id} />
    </Card>
  )
}
