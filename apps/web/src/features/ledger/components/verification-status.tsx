import { Download, RotateCw, ShieldCheck } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { ApiError } from '@/lib/api-client'
import { translateServerError } from '@/lib/server-errors'
import { NotStoredError } from '@/pwa/offline'
import { saveFile } from '../api/log'
import type { CircleCheck } from '@/lib/ledger-verification/use-ledger-verification'
import type { CircleVerification } from '@/lib/ledger-verification/verify-circle'
import { formatBlockTime } from './block-card'

type Alarm = Extract<CircleVerification, { state: 'alarm' }>

function downloadEvidence(alarm: Alarm) {
  const stamp = alarm.evidence.detectedAt.replaceAll(':', '-')
  saveFile(
    `circles-evidence-${alarm.circleId}-${stamp}.json`,
    `${JSON.stringify(alarm.evidence, null, 2)}\n`,
    'application/json',
  )
}

function AlarmNotice({ alarm, circle }: { alarm: Alarm; circle: string }) {
  const { t } = useTranslation('ledger')
  const height = alarm.evidence.block?.height
  // Issue 29: the audit paths are built from tiles; tiles that do not make the signed root name no block.
  const fromTiles = (alarm.evidence.proof as { type?: string } | undefined)?.type === 'tiles'
  const values = { circle, seen: alarm.seenSize, size: alarm.size, height }
  // Issue 29: another device cosigned another history (docs/decisions/0063): named by its member, or
  // as this account's other device (docs/decisions/0064); evidence from before names neither.
  const split = alarm.evidence.splitView
  const member = split?.witness.memberName
  const whose = split?.ownAccount ? 'Own' : member ? 'Named' : ''
  const text = split
    ? t(`device.splitView.${split.kind === 'other-root' ? 'otherRoot' : 'inconsistent'}${whose}`, {
        ...values,
        member,
      })
    : alarm.reason === 'inclusion' && fromTiles
      ? t('device.tiles', values)
      : t(`device.reason.${alarm.reason}`, values)
  return (
    <Alert
      tone="error"
      title={
        split
          ? t(split.ownAccount ? 'device.splitViewOwnTitle' : 'device.splitViewTitle')
          : t('device.alarmTitle')
      }
      action={
        <Button
          size="sm"
          variant="secondary"
          icon={<Download aria-hidden="true" />}
          onClick={() => downloadEvidence(alarm)}
        >
          {t('device.downloadEvidence')}
        </Button>
      }
    >
      <p>{text}</p>
      <p className="mt-1 text-fg-muted">
        {split
          ? t(split.ownAccount ? 'device.splitViewOwnAdvice' : 'device.splitViewAdvice')
          : t('device.alarmAdvice')}
      </p>
    </Alert>
  )
}

/**
 * What this device found when it checked the ledger it shows (issue 14): 'verified on this device' with
 * the checkpoint's size and time, the 'history was rewritten' alarm with its evidence, or that the check
 * could not run.
 */
export function VerificationStatus({ checks }: { checks: CircleCheck[] }) {
  const { t, i18n } = useTranslation('ledger')
  const language = i18n.resolvedLanguage ?? i18n.language
  if (checks.length === 0) return null
  const named = (check: CircleCheck) => check.circleName || t('device.thisCircle')
  const alarms = checks.flatMap((c) =>
    c.result?.state === 'alarm' ? [{ alarm: c.result, circle: named(c) }] : [],
  )
  const failed = checks.filter((c) => c.status === 'error')
  // The server answered but refused (too many checks this hour, say): its reason, not 'offline'.
  const answered = failed.map((c) => c.error).find((e) => e instanceof ApiError && e.status > 0)
  const notStored = failed.some((c) => c.error instanceof NotStoredError)
  const failedText = answered
    ? t('device.failedAnswer', { message: translateServerError(answered.message) })
    : notStored
      ? t('device.notStored')
      : t('device.failedBody')
  const verified = checks.flatMap((c) =>
    c.result?.state === 'verified' ? [{ check: c, result: c.result }] : [],
  )
  const pending = checks.filter((c) => c.status === 'pending')

  return (
    <div className="flex flex-col gap-3" data-testid="ledger-device-check">
      {alarms.map(({ alarm, circle }) => (
        <AlarmNotice key={alarm.circleId} alarm={alarm} circle={circle} />
      ))}
      {failed.length > 0 ? (
        <Alert
          tone="warning"
          title={t('device.failedTitle')}
          action={
            <Button
              size="sm"
              variant="secondary"
              icon={<RotateCw aria-hidden="true" />}
              onClick={() => failed.forEach((c) => c.retry())}
            >
              {t('device.retry')}
            </Button>
          }
        >
          {failedText}
        </Alert>
      ) : null}
      {pending.length > 0 ? (
        // The shape of the verified box below, so the page does not move when the check is done.
        <div
          role="status"
          className="flex gap-3 rounded-md border border-border bg-surface px-4 py-3 text-sm"
        >
          <Spinner size="sm" className="mt-0.5 shrink-0 text-fg-muted" />
          <div className="flex min-w-0 flex-col gap-1">
            <p className="font-semibold">{t('device.checking')}</p>
            <ul className="flex flex-col gap-0.5">
              {pending.map((check) => (
                <li key={check.circleId}>{t('device.checkingCircle', { circle: named(check) })}</li>
              ))}
            </ul>
            <p className="text-fg-muted">{t('device.checkingBody')}</p>
          </div>
        </div>
      ) : null}
      {verified.length > 0 && alarms.length === 0 ? (
        <div
          role="status"
          className="flex gap-3 rounded-md border border-success/25 bg-success-soft px-4 py-3 text-sm"
        >
          <ShieldCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-success" />
          <div className="flex min-w-0 flex-col gap-1">
            <p className="font-semibold">{t('device.verified')}</p>
            <ul className="flex flex-col gap-0.5">
              {verified.map(({ check, result }) => (
                <li key={check.circleId} data-testid="ledger-device-checkpoint">
                  {result.offlineFrom
                    ? t('device.offlineCheckpoint', {
                        count: result.size,
                        circle: named(check),
                        time: formatBlockTime(result.offlineFrom, language),
                      })
                    : t('device.checkpoint', {
                        count: result.size,
                        circle: named(check),
                        time: formatBlockTime(result.verifiedAt, language),
                      })}
                </li>
              ))}
            </ul>
            <p className="text-fg-muted">
              {verified.some(({ result }) => result.offlineFrom)
                ? t('device.offlineBody')
                : t('device.verifiedBody')}
            </p>
          </div>
        </div>
      ) : null}
    </div>
  )
}
