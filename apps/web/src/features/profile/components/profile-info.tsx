import { MESSAGES, type TUser, ZUpdateMeRequest } from '@circles/shared'
import { Pencil } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { focusOnMount } from '@/lib/focus-on-mount'
import { Button } from '@/components/ui/button'
import { Card, CardTitle } from '@/components/ui/card'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { notify } from '@/lib/notify'
import { failureMessage, translateServerError } from '@/lib/server-errors'
import { useUpdateProfile } from '../api/profile'
import { AvatarPicture } from './avatar-picture'
import { dateFormat } from '@/lib/intl-formats'

function Row({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:gap-6">
      <dt className="w-40 shrink-0 text-sm text-fg-muted">{term}</dt>
      <dd className="min-w-0 text-sm break-words text-fg">{children}</dd>
    </div>
  )
}

/** Tab 'Profile Information' (spec 001 §2): name, email, created date; the name can be edited. */
export function ProfileInfo({ user }: { user: TUser }) {
  const { t, i18n } = useTranslation('profile')
  const [editing, setEditing] = useState(false)
  const [name, setName] = useState(user.name)
  const [error, setError] = useState<string>()
  const update = useUpdateProfile()

  const cancel = () => {
    setEditing(false)
    setName(user.name)
    setError(undefined)
  }
  const save = (event: FormEvent) => {
    event.preventDefault()
    const parsed = ZUpdateMeRequest.safeParse({ name })
    if (!parsed.success) {
      setError(translateServerError(parsed.error.issues[0]?.message ?? MESSAGES.required))
      return
    }
    update.mutate(parsed.data, {
      onSuccess: () => {
        notify.success(translateServerError(MESSAGES.profileUpdated))
        setEditing(false)
        setError(undefined)
      },
      onError: (failure) => notify.error(failureMessage(failure, t('info.updateFailed'))),
    })
  }

  return (
    <Card className="flex flex-col gap-2 p-5 sm:p-6">
      <div className="flex items-center justify-between gap-3">
        <CardTitle>{t('info.title')}</CardTitle>
        {editing ? null : (
          <Button
            variant="secondary"
            size="sm"
            icon={<Pencil aria-hidden="true" />}
            onClick={() => setEditing(true)}
          >
            {t('info.edit')}
          </Button>
        )}
      </div>
      {editing ? (
        <form onSubmit={save} noValidate className="flex max-w-md flex-col gap-4 pt-2">
          <FormField label={t('info.name')} error={error}>
            {(field) => (
              <Input
                {...field}
                value={name}
                autoComplete="name"
                ref={focusOnMount}
                invalid={Boolean(error)}
                onChange={(event) => setName(event.target.value)}
              />
            )}
          </FormField>
          <div className="flex gap-2">
            <Button type="submit" loading={update.isPending}>
              {t('info.save')}
            </Button>
            <Button variant="ghost" onClick={cancel}>
              {t('info.cancel')}
            </Button>
          </div>
        </form>
      ) : null}
      <AvatarPicture user={user} />
      <dl className="divide-y divide-border">
        {editing ? null : <Row term={t('info.name')}>{user.name}</Row>}
        <Row term={t('info.email')}>{user.email}</Row>
        <Row term={t('info.created')}>
          {dateFormat(i18n.language, { dateStyle: 'long' }).format(new Date(user.createdAt))}
        </Row>
      </dl>
    </Card>
  )
}
