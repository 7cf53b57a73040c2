import { MESSAGES, ZMessageResponse } from '@circles/shared'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'
import { BellOff } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link, useSearchParams } from 'react-router'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { api } from '@/lib/api-client'
import { translateServerError } from '@/lib/server-errors'
import { useDocumentTitle } from '@/lib/use-document-title'

/**
 * /unsubscribe?token= from a notice email: no sign-in needed. Opening the link changes nothing (mail
 * scanners open links); the button does.
 */
export function UnsubscribePage() {
  const { t } = useTranslation('profile')
  useDocumentTitle(t('unsubscribe.documentTitle'))
  const token = useSearchParams()[0].get('token') ?? ''
  const unsubscribe = useGuardedMutation({
    mutationFn: () => api.post('/users/unsubscribe', { token }, ZMessageResponse, { skipLogoutOn401: true }),
  })

  let body
  if (!token) body = <Alert tone="error">{translateServerError(MESSAGES.unsubscribeLinkInvalid)}</Alert>
  else if (unsubscribe.isSuccess)
    body = <Alert tone="success">{translateServerError(unsubscribe.data.message)}</Alert>
  else {
    body = (
      <>
        {unsubscribe.isError ? (
          <Alert tone="error">{translateServerError(unsubscribe.error.message)}</Alert>
        ) : null}
        <Button className="self-center" loading={unsubscribe.isPending} onClick={() => unsubscribe.mutate()}>
          {t('unsubscribe.confirm')}
        </Button>
      </>
    )
  }

  return (
    <main id="main-content" className="mx-auto flex w-full max-w-lg flex-1 flex-col px-4 py-12 sm:px-6">
      <Card className="flex flex-col gap-5 p-6 text-center sm:p-8">
        <span className="inline-flex size-12 items-center justify-center self-center rounded-full bg-accent-soft text-accent-text">
          <BellOff aria-hidden="true" className="size-6" />
        </span>
        <div className="flex flex-col gap-2">
          <h1 className="text-xl font-semibold tracking-tight">{t('unsubscribe.title')}</h1>
          <p className="text-sm text-fg-muted">{t('unsubscribe.body')}</p>
        </div>
        {body}
        <Link to="/profile" className="text-sm font-medium text-accent-text underline underline-offset-2">
          {t('unsubscribe.manage')}
        </Link>
      </Card>
    </main>
  )
}
