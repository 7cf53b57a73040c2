import { MESSAGES, type TPasskeyCredential, ZRenamePasskeyRequest } from '@circles/shared'
import { KeyRound, Pencil, Trash2 } from 'lucide-react'
import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { focusOnMount } from '@/lib/focus-on-mount'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { notify } from '@/lib/notify'
import { failureMessage, translateServerError } from '@/lib/server-errors'
import { useRenamePasskey } from '../api/rename-passkey'
import { dateFormat } from '@/lib/intl-formats'

interface PasskeyRowProps {
  passkey: TPasskeyCredential
  onDelete(): void
}

/**
 * One passkey (spec 001 §2, issue 24): its name, what kind it is, when it was registered and last
 * used; rename inline (Save/Cancel, Escape cancels, focus returns to Rename) and delete.
 */
export function PasskeyRow({ passkey, onDelete }: PasskeyRowProps) {
  const { t, i18n } = useTranslation('profile')
  const nameId = useId()
  const [editing, setEditing] = useState(false)
  const [name, setName] = useState(passkey.name)
  const [error, setError] = useState<string>()
  const renameButton = useRef<HTMLButtonElement>(null)
  const rename = useRenamePasskey()

  const format = (iso: string) => dateFormat(i18n.language, { dateStyle: 'medium' }).format(new Date(iso))
  const multi = passkey.credentialDeviceType === 'multiDevice'

  // Back to where the keyboard was, once the button is there again: after the commit that shows it
  // (a frame callback could run before React renders, and find no button).
  const refocus = useRef(false)
  useEffect(() => {
    if (editing || !refocus.current) return
    refocus.current = false
    renameButton.current?.focus()
  }, [editing])
  const close = () => {
    refocus.current = true
    setEditing(false)
    setError(undefined)
  }
  const open = () => {
    setName(passkey.name)
    setError(undefined)
    setEditing(true)
  }
  const save = (event: FormEvent) => {
    event.preventDefault()
    const parsed = ZRenamePasskeyRequest.safeParse({ name })
    if (!parsed.success) {
      setError(translateServerError(parsed.error.issues[0]?.message ?? MESSAGES.passkeyNameRequired))
      return
    }
    if (parsed.data.name === passkey.name) return close()
    rename.mutate(
      { id: passkey.id, name: parsed.data.name },
      {
        onSuccess: () => {
          notify.success(t('passkeyNames.renamed'))
          close()
        },
        onError: (failure) => setError(failureMessage(failure, t('passkeyNames.renameFailed'))),
      },
    )
  }
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && !rename.isPending) {
      event.preventDefault()
      close()
    }
  }

  return (
    <li className="flex items-start gap-3 py-3">
      <span className="mt-0.5 inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-accent-soft text-accent-text">
        <KeyRound aria-hidden="true" className="size-4" />
      </span>
      {editing ? (
        <form onSubmit={save} onKeyDown={onKeyDown} noValidate className="flex min-w-0 flex-1 flex-col gap-3">
          <FormField label={t('passkeyNames.nameLabel')} error={error}>
            {(field) => (
              <Input
                {...field}
                value={name}
                autoComplete="off"
                ref={focusOnMount}
                invalid={Boolean(error)}
                onFocus={(event) => event.currentTarget.select()}
                onChange={(event) => setName(event.target.value)}
              />
            )}
          </FormField>
          <div className="flex gap-2">
            <Button type="submit" size="sm" loading={rename.isPending}>
              {t('passkeyNames.save')}
            </Button>
            <Button variant="ghost" size="sm" disabled={rename.isPending} onClick={close}>
              {t('passkeyNames.cancel')}
            </Button>
          </div>
        </form>
      ) : (
        <>
          <div className="flex min-w-0 flex-1 flex-col gap-0.5">
            <span id={nameId} className="text-sm font-medium break-words text-fg">
              {passkey.name}
            </span>
            <span className="text-xs text-fg-muted">
              {t(multi ? 'security.multiDevice' : 'security.singleDevice')} ·{' '}
              {t(passkey.credentialBackedUp ? 'security.synced' : 'security.deviceOnly')}
            </span>
            <span className="text-xs text-fg-muted">
              {t('security.registeredOn', { date: format(passkey.createdAt) })} ·{' '}
              {passkey.lastUsedAt
                ? t('passkeyNames.lastUsed', { date: format(passkey.lastUsedAt) })
                : t('passkeyNames.neverUsed')}
            </span>
          </div>
          <div className="flex shrink-0 flex-col gap-1 sm:flex-row">
            <Button
              ref={renameButton}
              variant="ghost"
              size="sm"
              icon={<Pencil aria-hidden="true" />}
              aria-describedby={nameId}
              onClick={open}
            >
              {t('passkeyNames.rename')}
            </Button>
            <Button
              variant="ghost"
              size="sm"
              icon={<Trash2 aria-hidden="true" />}
              aria-describedby={nameId}
              onClick={onDelete}
            >
              {t('security.delete')}
            </Button>
          </div>
        </>
      )}
    </li>
  )
}
