import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardDescription, CardTitle } from '@/components/ui/card'
import { notify } from '@/lib/notify'
import { devicePushOn, pushSupport, turnOffPush, turnOnPush } from '@/pwa'

type State = 'loading' | 'unsupported' | 'needs-install' | 'denied' | 'off' | 'on'

/**
 * "Notices on this device" (issue 27, docs/decisions/0053): Web Push for this browser, on or off, with
 * what to do where it cannot be: not supported, blocked, or an iPhone/iPad tab (installed app only).
 * Which kinds arrive is chosen with the email switches (NoticePreferences).
 */
export function DevicePush() {
  const { t } = useTranslation('profile')
  const [state, setState] = useState<State>(() => {
    const support = pushSupport()
    return support === 'available' ? 'loading' : support
  })
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    if (pushSupport() !== 'available') return
    let cancelled = false
    devicePushOn()
      .then((on) => !cancelled && setState(on ? 'on' : 'off'))
      .catch(() => !cancelled && setState('off'))
    return () => {
      cancelled = true
    }
  }, [])

  const turnOn = async () => {
    setBusy(true)
    try {
      const outcome = await turnOnPush()
      setState(outcome === 'on' ? 'on' : 'denied')
      if (outcome === 'on') notify.success(t('push.turnedOn'))
    } catch {
      notify.error(t('push.failed'))
    } finally {
      setBusy(false)
    }
  }
  const turnOff = async () => {
    setBusy(true)
    try {
      await turnOffPush()
      setState('off')
      notify.success(t('push.turnedOff'))
    } catch {
      notify.error(t('push.failed'))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Card className="flex flex-col gap-4 p-5 sm:p-6" data-device-push={state}>
      <div>
        <CardTitle>{t('push.title')}</CardTitle>
        <CardDescription>{t('push.intro')}</CardDescription>
      </div>
      {state === 'loading' ? null : state === 'unsupported' ? (
        <Alert tone="info">{t('push.unsupported')}</Alert>
      ) : state === 'needs-install' ? (
        <Alert tone="info">{t('push.needsInstall')}</Alert>
      ) : state === 'denied' ? (
        <Alert tone="warning">{t('push.denied')}</Alert>
      ) : state === 'on' ? (
        <div className="flex flex-col gap-3">
          <p>{t('push.on')}</p>
          <Button type="button" variant="secondary" className="self-start" loading={busy} onClick={turnOff}>
            {t('push.turnOff')}
          </Button>
        </div>
      ) : (
        <Button type="button" className="self-start" loading={busy} onClick={turnOn}>
          {t('push.turnOn')}
        </Button>
      )}
    </Card>
  )
}
