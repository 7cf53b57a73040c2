import { MESSAGES, type TDeletionPreview, type TUser } from '@circles/shared'
import { Fingerprint, Trash2, TriangleAlert } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { focusOnMount } from '@/lib/focus-on-mount'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardDescription, CardTitle } from '@/components/ui/card'
import { FormField } from '@/components/ui/form-field'
import { PasswordInput } from '@/components/ui/password-input'
import { Spinner } from '@/components/ui/spinner'
import { passkeysSupported } from '@/lib/passkeys'
import { personName } from '@/lib/person-name'
import { failureMessage, translateServerError } from '@/lib/server-errors'
import { signOutAndLeave } from '@/lib/sign-out'
import { PasskeyPromptError, useDeleteAccount } from '../api/delete-account'
import { useDeletionPreview } from '../api/deletion-preview'

/** Where a deleted person lands, signed out: a public page that says it is done. */
export const ACCOUNT_DELETED_PATH = '/account-deleted'

/** What the deletion will do, from the server's preview (issue 24). */
function Consequences({ preview }: { preview: TDeletionPreview }) {
  const { t } = useTranslation('profile')
  const circleName = (id: string) => preview.circles.find((c) => c.id === id)?.name ?? ''
  const lines: string[] = []
  for (const circle of preview.circles) {
    if (circle.outcome === 'CLOSES') lines.push(t('deletion.circleCloses', { circle: circle.name }))
    else if (circle.outcome === 'ADMIN_PASSES')
      lines.push(t('deletion.adminPasses', { circle: circle.name, name: personName(circle.successor?.name) }))
    else lines.push(t('deletion.circleLeft', { circle: circle.name }))
  }
  if (preview.itemsDeleted.length > 0)
    lines.push(
      t('deletion.itemsDeleted', {
        count: preview.itemsDeleted.length,
        items: preview.itemsDeleted.map((item) => item.name).join(', '),
      }),
    )
  for (const item of preview.itemsToAdmin)
    lines.push(
      t('deletion.itemToAdmin', {
        item: item.name,
        name: personName(item.admin.name),
        circle: circleName(item.circleId),
      }),
    )
  if (preview.pendingHandovers > 0)
    lines.push(t('deletion.handoversWithdrawn', { count: preview.pendingHandovers }))
  lines.push(t('deletion.nameErased'))
  return (
    <ul
      aria-label={t('deletion.whatHappens')}
      className="flex list-disc flex-col gap-1.5 pl-5 text-sm text-fg"
    >
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  )
}

/** The last step: the password (or a passkey), then the final button. */
function Confirm({ preview, onCancel }: { preview: TDeletionPreview; onCancel(): void }) {
  const { t } = useTranslation('profile')
  const remove = useDeleteAccount()
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string>()
  const withPasskey = preview.hasPasskeys && passkeysSupported()

  const run = (confirmation: { password: string } | { passkey: true }) => {
    setError(undefined)
    remove.mutate(confirmation, {
      onSuccess: () => void signOutAndLeave(ACCOUNT_DELETED_PATH),
      onError: (failure) =>
        setError(
          failure instanceof PasskeyPromptError
            ? t(`deletion.passkey.${failure.reason}`)
            : failureMessage(failure, t('deletion.failed')),
        ),
    })
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!password) {
      setError(translateServerError(MESSAGES.deleteAccountConfirmRequired))
      return
    }
    run({ password })
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-labelledby="delete-confirm-heading"
      className="flex flex-col gap-4 rounded-md border border-danger/25 bg-danger-soft p-4"
    >
      <h3 id="delete-confirm-heading" className="text-base font-semibold text-fg">
        {t('deletion.confirmTitle')}
      </h3>
      <p className="text-sm text-fg">{t('deletion.confirmIntro')}</p>
      <FormField label={t('deletion.password')} error={undefined}>
        {(field) => (
          <PasswordInput
            {...field}
            name="password"
            className="max-w-sm"
            autoComplete="current-password"
            ref={focusOnMount}
            value={password}
            invalid={Boolean(error)}
            showLabel={t('deletion.showPassword')}
            hideLabel={t('deletion.hidePassword')}
            onChange={(event) => setPassword(event.target.value)}
          />
        )}
      </FormField>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        <Button
          type="submit"
          variant="danger"
          icon={<Trash2 aria-hidden="true" />}
          loading={remove.isPending}
        >
          {t('deletion.final')}
        </Button>
        {withPasskey ? (
          <Button
            type="button"
            variant="secondary"
            icon={<Fingerprint aria-hidden="true" />}
            disabled={remove.isPending}
            onClick={() => run({ passkey: true })}
          >
            {t('deletion.usePasskey')}
          </Button>
        ) : null}
        <Button type="button" variant="ghost" disabled={remove.isPending} onClick={onCancel}>
          {t('deletion.cancel')}
        </Button>
      </div>
    </form>
  )
}

/** 'Delete my account' (issue 24, GDPR Art. 17): what happens, then the password or a passkey. */
export function DeleteAccount(_props: { user: TUser }) {
  const { t } = useTranslation('profile')
  const preview = useDeletionPreview()
  const [confirming, setConfirming] = useState(false)

  let body
  if (preview.isPending) body = <Spinner label={t('deletion.loading')} />
  else if (preview.isError) body = <Alert tone="error">{t('deletion.loadFailed')}</Alert>
  else
    body = (
      <>
        <Consequences preview={preview.data} />
        {confirming ? (
          <Confirm preview={preview.data} onCancel={() => setConfirming(false)} />
        ) : (
          <Button
            className="self-start"
            variant="danger"
            icon={<Trash2 aria-hidden="true" />}
            onClick={() => setConfirming(true)}
          >
            {t('deletion.start')}
          </Button>
        )}
      </>
    )

  return (
    <Card
      className="flex flex-col gap-4 border-danger/30 p-5 sm:p-6"
      aria-labelledby="delete-account-heading"
    >
      <div className="flex items-start gap-3">
        <span className="inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-danger-soft text-danger">
          <TriangleAlert aria-hidden="true" className="size-4" />
        </span>
        <div>
          <CardTitle id="delete-account-heading">{t('deletion.title')}</CardTitle>
          <CardDescription>{t('deletion.intro')}</CardDescription>
        </div>
      </div>
      {body}
    </Card>
  )
}
