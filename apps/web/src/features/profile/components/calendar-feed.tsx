import { Check, Copy, RotateCcw } from 'lucide-react'
import { useEffect, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardDescription, CardTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { Input, Label } from '@/components/ui/input'
import { Spinner } from '@/components/ui/spinner'
import { notify } from '@/lib/notify'
import { failureText } from '@/lib/server-errors'
import { useCalendarFeed, useChangeCalendarFeed } from '../api/calendar-feed'

/**
 * Issue 26: the personal calendar feed (docs/decisions/0049): the secret URL with a copy button, a new
 * link (the old one stops working) and turning it off. Without a feed, one button makes it.
 */
export function CalendarFeed() {
  const { t } = useTranslation('profile')
  const feed = useCalendarFeed()
  const change = useChangeCalendarFeed()
  const [copied, setCopied] = useState(false)
  const [confirm, setConfirm] = useState<'renew' | 'revoke' | null>(null)
  const inputId = useId()

  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(false), 2000)
    return () => clearTimeout(timer)
  }, [copied])

  const run = (action: 'renew' | 'revoke') =>
    change.mutate(action, {
      onSuccess: () => {
        setConfirm(null)
        setCopied(false)
        notify.success(t(action === 'renew' ? 'calendar.renewed' : 'calendar.revoked'))
      },
      onError: (error) => {
        setConfirm(null)
        notify.error(failureText(error, t('calendar.failed')))
      },
    })

  const copy = async (url: string) => {
    try {
      if (!navigator.clipboard) throw new Error('Clipboard unavailable')
      await navigator.clipboard.writeText(url)
      setCopied(true)
    } catch {
      notify.error(t('calendar.copyFailed'))
    }
  }

  return (
    <Card className="flex flex-col gap-4 p-5 sm:p-6">
      <div>
        <CardTitle>{t('calendar.title')}</CardTitle>
        <CardDescription>{t('calendar.intro')}</CardDescription>
      </div>
      {feed.isPending ? (
        <Spinner label={t('calendar.title')} />
      ) : feed.isError ? (
        <Alert tone="error">{t('calendar.loadFailed')}</Alert>
      ) : feed.data ? (
        <div className="flex flex-col gap-3">
          <Label htmlFor={inputId}>{t('calendar.url')}</Label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Input
              id={inputId}
              readOnly
              value={feed.data}
              className="font-mono text-xs sm:text-xs"
              onFocus={(event) => event.currentTarget.select()}
            />
            <Button type="button" variant="secondary" onClick={() => void copy(feed.data!)}>
              {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
              {copied ? t('calendar.copied') : t('calendar.copy')}
            </Button>
          </div>
          <p className="text-sm text-fg-muted">{t('calendar.secret')}</p>
          <div className="flex flex-wrap gap-2">
            <Button type="button" variant="secondary" onClick={() => setConfirm('renew')}>
              <RotateCcw aria-hidden="true" />
              {t('calendar.renew')}
            </Button>
            <Button type="button" variant="ghost" onClick={() => setConfirm('revoke')}>
              {t('calendar.revoke')}
            </Button>
          </div>
        </div>
      ) : (
        <div className="flex flex-col gap-3">
          <p className="text-sm text-fg-muted">{t('calendar.off')}</p>
          <Button
            type="button"
            variant="secondary"
            className="self-start"
            loading={change.isPending}
            onClick={() => run('renew')}
          >
            {t('calendar.turnOn')}
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={confirm !== null}
        title={t(confirm === 'revoke' ? 'calendar.revokeTitle' : 'calendar.renewTitle')}
        description={t(confirm === 'revoke' ? 'calendar.revokeBody' : 'calendar.renewBody')}
        confirmLabel={t(confirm === 'revoke' ? 'calendar.revoke' : 'calendar.renew')}
        cancelLabel={t('calendar.cancel')}
        tone={confirm === 'revoke' ? 'danger' : 'primary'}
        pending={change.isPending}
        onConfirm={() => confirm && run(confirm)}
        onCancel={() => setConfirm(null)}
      />
    </Card>
  )
}
