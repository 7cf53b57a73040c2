import { useQuery } from '@tanstack/react-query'
import { FingerprintPattern } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { cn } from '@/lib/class-names'
import { translateServerError } from '@/lib/server-errors'
import { rememberedCheckpoint } from '@/lib/ledger-verification/checkpoint-store'
import { circleFingerprint } from '@/lib/ledger-verification/fingerprint'
import type { CircleCheck } from '@/lib/ledger-verification/use-ledger-verification'

/** The fingerprint of the checkpoint this device remembers for the circle (the one it verified and cosigned). */
async function fingerprintOf(circleId: string) {
  const remembered = await rememberedCheckpoint(circleId)
  if (!remembered) return null
  return { size: remembered.size, code: await circleFingerprint(remembered.note) }
}

/**
 * A circle's fingerprint on its ledger page (issue 29, docs/decisions/0063): a code two members compare
 * in person, as Signal's safety numbers. Read once this device's check is done (what it remembers then).
 * The box holds its place from the start (issue 27): while the check runs it says so, and the blocks
 * below do not move when the code arrives.
 */
export function CircleFingerprint({ check }: { check: CircleCheck | undefined }) {
  const { t } = useTranslation('ledger')
  const result = check?.result
  const stamp = result?.state === 'verified' ? result.verifiedAt : result?.evidence.detectedAt
  const fingerprint = useQuery({
    queryKey: ['ledger', 'fingerprint', check?.circleId, stamp],
    queryFn: () => fingerprintOf(check!.circleId),
    enabled: !!check && !!stamp,
    networkMode: 'always',
    staleTime: Infinity,
  })
  const value = fingerprint.data
  const checking = !value && (!check || check.status === 'pending' || (!!stamp && fingerprint.isPending))
  // Issue 29: why this device did not cosign, when it could not (the code is still what it checked).
  const cosignError = result?.state === 'verified' ? result.cosignError : undefined
  return (
    <section
      aria-labelledby="circle-fingerprint-title"
      aria-busy={checking}
      className="flex gap-3 rounded-md border border-border bg-surface px-4 py-3 text-sm"
      data-testid="circle-fingerprint"
    >
      <FingerprintPattern aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-fg-muted" />
      <div className="flex min-w-0 flex-col gap-1">
        <h2 id="circle-fingerprint-title" className="font-semibold">
          {t('fingerprint.title')}
        </h2>
        {value ? (
          <>
            <p
              className="font-mono text-lg tracking-wider tabular-nums"
              data-testid="circle-fingerprint-code"
            >
              {value.code}
            </p>
            <p>
              {cosignError === undefined
                ? t('fingerprint.body', { count: value.size })
                : t('fingerprint.bodyChecked', { count: value.size })}
            </p>
            {cosignError === undefined ? null : (
              <p className="font-medium">
                {t('fingerprint.notCosigned', { message: translateServerError(cosignError) })}
              </p>
            )}
          </>
        ) : (
          <>
            <p className="font-mono text-lg" aria-hidden="true">
              <span
                className={cn(
                  'inline-block h-5 w-56 max-w-full rounded-sm bg-surface-2 align-middle',
                  checking && 'animate-pulse',
                )}
              />
            </p>
            <p>{checking ? t('fingerprint.checking') : t('fingerprint.none')}</p>
          </>
        )}
        <p className="text-fg-muted">{t('fingerprint.compare')}</p>
      </div>
    </section>
  )
}
