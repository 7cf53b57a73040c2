import { LIMITS, type TWitnessKey } from '@circles/shared'
import { MonitorSmartphone, RotateCw, Trash2 } from 'lucide-react'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { Spinner } from '@/components/ui/spinner'
import { notify } from '@/lib/notify'
import { failureText } from '@/lib/server-errors'
import { useRemoveWitnessKey, useThisWitnessDevice, useWitnessKeys } from '../api/witness-keys'
import { dateFormat } from '@/lib/intl-formats'

/**
 * Issue 29 (docs/decisions/0064): the devices whose witness keys cosign the account's circles' ledgers,
 * this one marked, each with when it was registered and last cosigned, and a way to remove it. At the
 * limit of ten, a new device replaces the one unused longest: the intro says so.
 */
export function WitnessDevices({ userId }: { userId: string }) {
  const { t } = useTranslation('profile')
  const keys = useWitnessKeys()
  const thisDevice = useThisWitnessDevice(userId).data ?? null
  const remove = useRemoveWitnessKey(userId)
  const [removing, setRemoving] = useState<TWitnessKey | null>(null)

  const labelOf = (key: TWitnessKey) => key.label ?? t('witnesses.unnamed')
  const confirmRemove = () => {
    if (!removing) return
    remove.mutate(removing.deviceId, {
      onSuccess: () => {
        notify.success(t('witnesses.removed', { device: labelOf(removing) }))
        setRemoving(null)
      },
      onError: (error) => {
        setRemoving(null)
        notify.error(failureText(error, t('witnesses.removeFailed')))
      },
    })
  }

  let list
  if (keys.isPending) list = <Spinner label={t('witnesses.loading')} />
  else if (keys.isError)
    list = (
      <Alert
        tone="error"
        action={
          <Button
            size="sm"
            variant="secondary"
            icon={<RotateCw aria-hidden="true" />}
            loading={keys.isFetching}
            onClick={() => void keys.refetch()}
          >
            {t('witnesses.retry')}
          </Button>
        }
      >
        {t('witnesses.loadFailed')}
      </Alert>
    )
  else if (keys.data.length === 0) list = <p className="py-3 text-sm text-fg-muted">{t('witnesses.empty')}</p>
  else
    list = (
      <>
        <p className="text-xs text-fg-muted">
          {t('witnesses.count', { count: keys.data.length, limit: LIMITS.witnessKeysPerAccount })}
        </p>
        <ul aria-label={t('witnesses.title')} className="divide-y divide-border">
          {/* This device first, then the others newest first (as the server lists them). */}
          {[...keys.data]
            .sort((a, b) => Number(b.deviceId === thisDevice) - Number(a.deviceId === thisDevice))
            .map((key) => (
              <WitnessRow
                key={key.deviceId}
                witnessKey={key}
                label={labelOf(key)}
                isThisDevice={key.deviceId === thisDevice}
                onRemove={() => setRemoving(key)}
              />
            ))}
        </ul>
      </>
    )

  return (
    <section aria-labelledby="witnesses-heading" className="flex flex-col gap-3 border-t border-border pt-5">
      <div>
        <h3 id="witnesses-heading" className="text-base font-semibold text-fg">
          {t('witnesses.title')}
        </h3>
        <p className="mt-1 text-sm text-fg-muted">{t('witnesses.intro')}</p>
        <p className="mt-1 text-sm text-fg-muted">
          {t('witnesses.limit', { limit: LIMITS.witnessKeysPerAccount })}
        </p>
      </div>
      {list}
      <ConfirmDialog
        open={removing !== null}
        title={t('witnesses.removeTitle', { device: removing ? labelOf(removing) : '' })}
        description={t(
          removing?.deviceId === thisDevice ? 'witnesses.removeThisBody' : 'witnesses.removeBody',
        )}
        confirmLabel={t('witnesses.removeConfirm')}
        cancelLabel={t('witnesses.cancel')}
        tone="danger"
        pending={remove.isPending}
        onConfirm={confirmRemove}
        onCancel={() => setRemoving(null)}
      />
    </section>
  )
}

function WitnessRow({
  witnessKey,
  label,
  isThisDevice,
  onRemove,
}: {
  witnessKey: TWitnessKey
  label: string
  isThisDevice: boolean
  onRemove(): void
}) {
  const { t, i18n } = useTranslation('profile')
  const nameId = useId()
  const format = (iso: string) => dateFormat(i18n.language, { dateStyle: 'medium' }).format(new Date(iso))
  return (
    <li className="flex items-start gap-3 py-3">
      <span className="mt-0.5 inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-accent-soft text-accent-text">
        <MonitorSmartphone aria-hidden="true" className="size-4" />
      </span>
      <div className="flex min-w-0 flex-1 flex-col gap-0.5">
        <span className="flex flex-wrap items-center gap-2">
          <span id={nameId} className="text-sm font-medium break-words text-fg">
            {label}
          </span>
          {isThisDevice ? <Badge tone="info">{t('witnesses.thisDevice')}</Badge> : null}
        </span>
        <span className="text-xs text-fg-muted">
          {t('witnesses.registered', { date: format(witnessKey.createdAt) })} ·{' '}
          {witnessKey.lastCosignedAt
            ? t('witnesses.lastCosigned', { date: format(witnessKey.lastCosignedAt) })
            : t('witnesses.neverCosigned')}
        </span>
      </div>
      <Button
        variant="ghost"
        size="sm"
        className="shrink-0"
        icon={<Trash2 aria-hidden="true" />}
        aria-describedby={nameId}
        onClick={onRemove}
      >
        {t('witnesses.remove')}
      </Button>
    </li>
  )
}
