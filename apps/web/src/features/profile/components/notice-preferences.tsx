import type { TNoticePreferences } from '@circles/shared'
import { type FormEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardDescription, CardTitle } from '@/components/ui/card'
import { Checkbox } from '@/components/ui/checkbox'
import { Spinner } from '@/components/ui/spinner'
import { notify } from '@/lib/notify'
import { useNotices, useUpdateNotices } from '../api/profile'

const KINDS = [
  'handoverRequests',
  'handoverAnswers',
  'invitations',
  // Issue 26: lending.
  'loanReminders',
  'borrowRequests',
  'loanChanges',
] as const

const PUSH_KINDS = ['handoverRequests', 'handoverAnswers', 'invitations', 'loanReminders'] as const

function NoticeForm({ saved }: { saved: TNoticePreferences }) {
  const { t } = useTranslation('profile')
  const [values, setValues] = useState(saved)
  const update = useUpdateNotices()
  const submit = (event: FormEvent) => {
    event.preventDefault()
    update.mutate(values, {
      onSuccess: () => notify.success(t('notices.saved')),
      onError: () => notify.error(t('notices.saveFailed')),
    })
  }
  return (
    <form onSubmit={submit} className="flex flex-col gap-4">
      <fieldset className="flex flex-col gap-3">
        <legend className="sr-only">{t('notices.title')}</legend>
        {KINDS.map((kind) => (
          <Checkbox
            key={kind}
            name={kind}
            label={t(`notices.${kind}`)}
            checked={values[kind]}
            onChange={(event) => setValues({ ...values, [kind]: event.target.checked })}
          />
        ))}
      </fieldset>
      {/* Issue 27: the kinds that also come as push notices, on the devices that turned them on. */}
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-2 font-medium">{t('notices.pushKinds')}</legend>
        {PUSH_KINDS.map((kind) => (
          <Checkbox
            key={kind}
            name={`push-${kind}`}
            label={t(`notices.pushKind.${kind}`)}
            checked={values.push[kind]}
            onChange={(event) =>
              setValues({ ...values, push: { ...values.push, [kind]: event.target.checked } })
            }
          />
        ))}
      </fieldset>
      <Button type="submit" variant="secondary" className="self-start" loading={update.isPending}>
        {t('notices.save')}
      </Button>
    </form>
  )
}

/** Which email notices the user wants (issue 13): one switch per kind, on by default. */
export function NoticePreferences() {
  const { t } = useTranslation('profile')
  const notices = useNotices()
  return (
    <Card className="flex flex-col gap-4 p-5 sm:p-6">
      <div>
        <CardTitle>{t('notices.title')}</CardTitle>
        <CardDescription>{t('notices.intro')}</CardDescription>
      </div>
      {notices.isPending ? (
        <Spinner label={t('notices.title')} />
      ) : notices.isError ? (
        <Alert tone="error">{t('notices.loadFailed')}</Alert>
      ) : (
        <NoticeForm saved={notices.data} />
      )}
    </Card>
  )
}
