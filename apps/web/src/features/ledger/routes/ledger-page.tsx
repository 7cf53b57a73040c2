import type { TBlock, TVerificationResult } from '@circles/shared'
import { Download, ShieldCheck } from 'lucide-react'
import { Staged } from '@/components/staged'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useParams } from 'react-router'
import { Alert } from '@/components/ui/alert'
import { Button, buttonClasses } from '@/components/ui/button'
import { Select } from '@/components/ui/select'
import { Spinner } from '@/components/ui/spinner'
import { NoLongerMemberNotice } from '@/components/no-longer-member-notice'
import { departureOf } from '@/lib/no-longer-member'
import { translateServerError } from '@/lib/server-errors'
import { useServerBoundList } from '@/lib/server-render'
import { useDocumentTitle } from '@/lib/use-document-title'
import { useBlocks, useVerifyCircle } from '../api/blocks'
import { downloadExport } from '../api/log'
import { BlockCard } from '../components/block-card'
import { CircleFingerprint } from '../components/circle-fingerprint'
import { VerificationStatus } from '../components/verification-status'
import { useLedgerVerification } from '@/lib/ledger-verification/use-ledger-verification'

/** The distinct circles or items the loaded blocks name, for the filters. */
function choices(blocks: TBlock[], pick: (block: TBlock) => { id: string; name: string }) {
  const seen = new Map<string, string>()
  for (const block of blocks) seen.set(pick(block).id, pick(block).name)
  return [...seen].map(([id, name]) => ({ id, name }))
}

/**
 * The server's chain check. A rewrite that recomputed every hash passes it; when this device's check
 * found one for the same circle, the server's 'Valid' is shown as a warning that says so.
 */
function VerificationResult({ result, deviceAlarm }: { result: TVerificationResult; deviceAlarm: boolean }) {
  const { t } = useTranslation('ledger')
  const [showFailing, setShowFailing] = useState(false)
  return (
    <Alert
      tone={!result.valid ? 'error' : deviceAlarm ? 'warning' : 'success'}
      title={result.valid ? t('verify.valid') : t('verify.compromised')}
      action={
        result.failingBlocks.length > 0 ? (
          <Button size="sm" variant="secondary" onClick={() => setShowFailing((shown) => !shown)}>
            {showFailing ? t('verify.hideFailing') : t('verify.showFailing')}
          </Button>
        ) : null
      }
    >
      <p>{translateServerError(result.message)}</p>
      <p>{t('verify.counts', { count: result.blockCount, failing: result.failingBlocks.length })}</p>
      {result.redactedBlocks > 0 ? <p>{t('verify.redacted', { count: result.redactedBlocks })}</p> : null}
      {result.valid && deviceAlarm ? <p>{t('verify.butDeviceAlarm')}</p> : null}
      {result.treeMatchesCheckpoint ? null : <p>{t('verify.treeMismatch')}</p>}
      {result.failingPhotos.length > 0 ? (
        <ul className="mt-1 flex flex-col gap-0.5" data-testid="verify-failing-photos">
          {result.failingPhotos.map((photo) => (
            <li key={`${photo.blockId}-${photo.side}-${photo.photo}`}>
              <Link to={`/blockchain/${photo.blockId}`} className="underline">
                {t('blockNumber', { height: photo.index })}
              </Link>
              {': '}
              {t(photo.actual === null ? 'verify.photoMissing' : 'verify.photoChanged', {
                number: photo.photo,
                side: t(photo.side === 'from' ? 'verify.sender' : 'verify.receiver'),
              })}
            </li>
          ))}
        </ul>
      ) : null}
      {showFailing ? (
        <ul className="mt-2 flex flex-col gap-1 font-mono text-xs">
          {result.failingBlocks.map((failing) => (
            <li key={failing.id}>
              <Link to={`/blockchain/${failing.id}`} className="underline">
                #{failing.index}
              </Link>{' '}
              {t('verify.stored')} {failing.hash.slice(0, 12)}… {t('verify.expected')}{' '}
              {failing.expectedHash.slice(0, 12)}…
            </li>
          ))}
        </ul>
      ) : null}
    </Alert>
  )
}

/**
 * The blocks, newest first; the server renders the first ones (lib/server-render.ts), and the rest follow
 * once the list is hydrated, which then re-renders the list alone.
 */
function BlockList({ blocks, inLog }: { blocks: TBlock[]; inLog: ReadonlySet<string> }) {
  const shown = useServerBoundList(blocks)
  return (
    <ul className="flex flex-col gap-3">
      {shown.map((block) => (
        <BlockCard key={block.id} block={block} inLog={inLog.has(block.id)} />
      ))}
    </ul>
  )
}

/**
 * /blockchain, /blockchain/circle/:circleId and /blockchain/item/:itemId (spec 001 §2 "Ledger pages").
 * The heading names the circle or item a view is about, and the filters are those the view leaves
 * open: all circles and items on /blockchain, the circle's items on a circle's page, none on an
 * item's (links lead to the wider views). A former member of the circle gets a notice instead.
 */
export function LedgerPage() {
  const { circleId, itemId } = useParams()
  const { t } = useTranslation('ledger')
  const blocks = useBlocks({ circleId, itemId })
  const verify = useVerifyCircle()
  const exported = useGuardedMutation({ mutationFn: downloadExport })
  // The checkpoint that came with the blocks spares the check a request (docs/decisions/0066).
  const checks = useLedgerVerification(blocks.data?.blocks, circleId, {
    checkpoint: blocks.data?.checkpoint,
    isStale: blocks.isStale,
    isFetching: blocks.isFetching,
  })
  const inLog = new Set(checks.flatMap((c) => (c.result?.state === 'verified' ? c.result.blockIds : [])))
  const [circleFilter, setCircleFilter] = useState(circleId ?? '')
  const [itemFilter, setItemFilter] = useState(itemId ?? '')
  useDocumentTitle(t('documentTitle'))

  const all = useMemo(() => blocks.data?.blocks ?? [], [blocks.data])
  const circles = useMemo(() => choices(all, (b) => b.content.circle), [all])
  const items = useMemo(() => choices(all, (b) => b.content.item), [all])
  const shown = all.filter(
    (b) =>
      (!circleFilter || b.content.circle.id === circleFilter) &&
      (!itemFilter || b.content.item.id === itemFilter),
  )
  const toVerify = circleFilter || (circles.length === 1 ? circles[0]!.id : '')
  const departure = departureOf(blocks.error)
  // Blocks come newest first: the newest names the circle and item as they are called now.
  const newest = all[0]?.content
  const heading =
    itemId && newest
      ? {
          title: t('view.itemTitle', { item: newest.item.name }),
          intro: t('view.itemIntro', { item: newest.item.name, circle: newest.circle.name }),
        }
      : circleId && newest
        ? {
            title: t('view.circleTitle', { circle: newest.circle.name }),
            intro: t('view.circleIntro', { circle: newest.circle.name }),
          }
        : { title: t('title'), intro: t('intro') }
  const wider =
    itemId && newest ? (
      <Link
        to={`/blockchain/circle/${newest.circle.id}`}
        className="text-sm font-medium text-accent-text underline"
      >
        {t('view.wholeCircle', { circle: newest.circle.name })}
      </Link>
    ) : circleId ? (
      <Link to="/blockchain" className="text-sm font-medium text-accent-text underline">
        {t('view.allCircles')}
      </Link>
    ) : null

  if (departure) {
    return (
      <main
        id="main-content"
        className="mx-auto flex w-full max-w-4xl flex-1 flex-col gap-6 px-4 py-8 sm:px-6 sm:py-12"
      >
        <NoLongerMemberNotice departure={departure} />
      </main>
    )
  }

  return (
    <main
      id="main-content"
      className="mx-auto flex w-full max-w-4xl flex-1 flex-col gap-6 px-4 py-8 sm:px-6 sm:py-12"
    >
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{heading.title}</h1>
        <p className="text-fg-muted">{heading.intro}</p>
        {wider}
      </div>

      <Staged>
        <VerificationStatus checks={checks} />
        {circleId && !itemId ? (
          <CircleFingerprint check={checks.find((c) => c.circleId === circleId)} />
        ) : null}
      </Staged>
      <Staged>
        {blocks.isPending ? (
          <div className="flex min-h-[30dvh] items-center justify-center text-fg-subtle">
            <Spinner size="lg" label={t('loading')} />
          </div>
        ) : blocks.isError ? (
          <Alert tone="error" title={t('loadFailed')}>
            {blocks.error.message ? translateServerError(blocks.error.message) : null}
          </Alert>
        ) : all.length === 0 ? (
          <section className="flex flex-col items-start gap-3 rounded-lg border border-dashed border-border p-8">
            <h2 className="text-lg font-semibold">{t('empty')}</h2>
            <p className="text-fg-muted">{t('emptyBody')}</p>
            <Link to="/items" className={buttonClasses({ variant: 'secondary' })}>
              {t('toItems')}
            </Link>
          </section>
        ) : (
          <>
            <div className="flex flex-col gap-4 rounded-lg border border-border bg-surface p-4 shadow-sm sm:flex-row sm:items-end">
              {circleId || itemId ? null : (
                <label className="flex flex-1 flex-col gap-1.5 text-sm font-medium">
                  {t('filter.circle')}
                  <Select value={circleFilter} onChange={(event) => setCircleFilter(event.target.value)}>
                    <option value="">{t('filter.allCircles')}</option>
                    {circles.map((c) => (
                      <option key={c.id} value={c.id}>
                        {c.name}
                      </option>
                    ))}
                  </Select>
                </label>
              )}
              {itemId ? null : (
                <label className="flex flex-1 flex-col gap-1.5 text-sm font-medium">
                  {t('filter.item')}
                  <Select value={itemFilter} onChange={(event) => setItemFilter(event.target.value)}>
                    <option value="">{t('filter.allItems')}</option>
                    {items
                      .filter(
                        (i) =>
                          !circleFilter ||
                          all.some((b) => b.content.item.id === i.id && b.content.circle.id === circleFilter),
                      )
                      .map((i) => (
                        <option key={i.id} value={i.id}>
                          {i.name}
                        </option>
                      ))}
                  </Select>
                </label>
              )}
              {itemId ? <div className="flex-1" /> : null}
              <Button
                icon={<ShieldCheck aria-hidden="true" />}
                needsServer
                disabled={!toVerify || verify.isPending}
                onClick={() => verify.mutate(toVerify)}
              >
                {t('verify.button')}
              </Button>
              <Button
                variant="secondary"
                icon={<Download aria-hidden="true" />}
                needsServer
                disabled={!toVerify || exported.isPending}
                onClick={() => exported.mutate(toVerify)}
              >
                {t('exportButton')}
              </Button>
            </div>
            {exported.isError ? <Alert tone="error">{t('exportFailed')}</Alert> : null}
            {!toVerify ? <p className="text-sm text-fg-muted">{t('verify.chooseCircle')}</p> : null}
            {verify.isError ? <Alert tone="error">{translateServerError(verify.error.message)}</Alert> : null}
            {verify.data ? (
              <VerificationResult
                result={verify.data}
                deviceAlarm={checks.some(
                  (c) => c.circleId === verify.variables && c.result?.state === 'alarm',
                )}
              />
            ) : null}
            <BlockList blocks={shown} inLog={inLog} />
          </>
        )}
      </Staged>
    </main>
  )
}
