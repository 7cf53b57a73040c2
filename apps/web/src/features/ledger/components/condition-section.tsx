import type { TBlock } from '@circles/shared'
import { Download, ImageOff, RotateCw, ShieldAlert, ShieldCheck } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { cn } from '@/lib/class-names'
import type { BlockConditionEvidence, SideEvidence } from '@/lib/ledger-verification/condition-evidence'
import type { PhotoCheck } from '@/lib/ledger-verification/use-condition-photos'
import { partyName } from './block-card'
import { Hash } from './hash'

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/webp': 'webp' }

function PhotoTile({ block, photo, name }: { block: TBlock; photo: PhotoCheck; name: string }) {
  const { t } = useTranslation('ledger')
  const number = photo.position + 1
  const height = block.content.height
  const alt = t('condition.photoAlt', { number, name })
  const frame = 'aspect-[4/3] w-full rounded-md border'
  const calm = cn(frame, 'border-border bg-surface-2')
  let picture
  let status
  switch (photo.status) {
    case 'verified':
      picture = (
        <a href={photo.objectUrl} target="_blank" rel="noopener" className="block rounded-md">
          <img src={photo.objectUrl} alt={alt} className={cn(calm, 'object-cover')} />
        </a>
      )
      status = (
        <span className="inline-flex items-start gap-1 text-success">
          <ShieldCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {t('condition.recorded', { height })}
        </span>
      )
      break
    case 'mismatch':
      picture = (
        <div
          role="img"
          aria-label={alt}
          className={cn(
            frame,
            'flex items-center justify-center border-danger/40 bg-danger-soft text-danger',
          )}
        >
          <ShieldAlert aria-hidden="true" className="size-8" />
        </div>
      )
      status = (
        <span className="inline-flex items-start gap-1 font-medium text-danger">
          <ShieldAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {t('condition.mismatch', { height })}
        </span>
      )
      break
    case 'deleted':
      picture = (
        <div
          role="img"
          aria-label={alt}
          className={cn(calm, 'flex items-center justify-center text-fg-subtle')}
        >
          <ImageOff aria-hidden="true" className="size-8" />
        </div>
      )
      status = <span className="text-fg-muted">{t('condition.deleted', { height })}</span>
      break
    case 'error':
      picture = (
        <div
          role="img"
          aria-label={alt}
          className={cn(calm, 'flex items-center justify-center text-fg-subtle')}
        >
          <ImageOff aria-hidden="true" className="size-8" />
        </div>
      )
      status = (
        <span className="flex flex-col items-start gap-1 text-fg-muted">
          {t('condition.unavailable')}
          <Button size="sm" variant="secondary" icon={<RotateCw aria-hidden="true" />} onClick={photo.retry}>
            {t('condition.retry')}
          </Button>
        </span>
      )
      break
    default:
      picture = <div role="img" aria-label={alt} aria-busy="true" className={cn(calm, 'animate-pulse')} />
      status = (
        <span className="inline-flex items-center gap-1.5 text-fg-muted">
          <Spinner size="sm" />
          {t('condition.checking')}
        </span>
      )
  }
  const extension = photo.status === 'verified' ? (EXTENSIONS[photo.type] ?? 'jpg') : 'jpg'
  return (
    <li
      className="flex min-w-0 flex-col gap-1.5 text-xs"
      data-testid="condition-photo"
      data-status={photo.status}
    >
      {picture}
      {status}
      <span className="inline-flex flex-wrap items-center gap-1 text-fg-muted">
        {t('condition.fingerprint')}{' '}
        <Hash hash={photo.expected} label={t('condition.fingerprintOf', { number, name })} />
      </span>
      {photo.status === 'verified' ? (
        <a
          href={photo.objectUrl}
          download={`circles-block-${height}-${photo.side === 'from' ? 'sender' : 'receiver'}-${number}.${extension}`}
          aria-label={t('condition.saveLabel', { number, name })}
          className="inline-flex items-center gap-1 self-start rounded-sm font-medium text-accent-text underline max-sm:min-h-11"
        >
          <Download aria-hidden="true" className="size-3.5" />
          {t('condition.save')}
        </a>
      ) : null}
    </li>
  )
}

function NoteLine({ note }: { note: NonNullable<SideEvidence['note']> }) {
  const { t } = useTranslation('ledger')
  if (note.check === 'notKept') return <p className="text-sm text-fg-muted">{t('condition.noteNotKept')}</p>
  return (
    <div className="flex flex-col gap-1">
      <p className="rounded-md border-s-2 border-border-strong bg-surface-2 px-3 py-2 text-sm whitespace-pre-line">
        {note.text}
      </p>
      {note.check === 'ok' ? (
        <span className="inline-flex items-center gap-1 text-xs text-success">
          <ShieldCheck aria-hidden="true" className="size-4" />
          {t('condition.noteOk')}
        </span>
      ) : (
        <span className="inline-flex items-center gap-1 text-xs font-medium text-danger">
          <ShieldAlert aria-hidden="true" className="size-4" />
          {t('condition.noteMismatch')}
        </span>
      )}
    </div>
  )
}

function SidePart({
  block,
  side,
  photos,
  asDescribed,
}: {
  block: TBlock
  side: SideEvidence
  photos: PhotoCheck[]
  asDescribed: boolean
}) {
  const { t } = useTranslation('ledger')
  const name = partyName(block, side.side)
  const shown = photos.filter((p) => p.side === side.side)
  const empty = !side.note && shown.length === 0
  return (
    <section
      className="flex flex-col gap-3"
      aria-labelledby={`condition-${side.side}`}
      data-testid={`condition-${side.side}`}
    >
      <h3 id={`condition-${side.side}`} className="text-sm font-semibold">
        {t(side.side === 'from' ? 'condition.from' : 'condition.to', { name })}
      </h3>
      {asDescribed && side.side === 'to' ? (
        <p className="inline-flex items-center gap-1.5 text-sm">
          <ShieldCheck aria-hidden="true" className="size-4 text-success" />
          {t('condition.asDescribed')}
        </p>
      ) : empty ? (
        <p className="text-sm text-fg-muted">{t('condition.nothing')}</p>
      ) : null}
      {side.note ? <NoteLine note={side.note} /> : null}
      {shown.length > 0 ? (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          {shown.map((photo) => (
            <PhotoTile key={photo.position} block={block} photo={photo} name={name} />
          ))}
        </ul>
      ) : null}
    </section>
  )
}

/**
 * The block page's 'Condition' (issue 28): per side, the note with its check and each photo checked on
 * this device, shown from the bytes that matched the block's digest, 'recorded in block N'.
 */
export function ConditionSection({
  block,
  evidence,
  photos,
  children,
}: {
  block: TBlock
  evidence: BlockConditionEvidence
  photos: PhotoCheck[]
  children?: React.ReactNode
}) {
  const { t } = useTranslation('ledger')
  return (
    <section
      aria-labelledby="condition-title"
      className="flex flex-col gap-5 rounded-lg border border-border bg-surface p-5 shadow-sm"
      data-testid="condition-section"
    >
      <div className="flex flex-col gap-1">
        <h2 id="condition-title" className="text-lg font-semibold">
          {t('condition.title')}
        </h2>
        <p className="text-sm text-fg-muted">{t('condition.intro', { height: evidence.height })}</p>
      </div>
      {evidence.sides.map((side) => (
        <SidePart
          key={side.side}
          block={block}
          side={side}
          photos={photos}
          asDescribed={evidence.asDescribed}
        />
      ))}
      {children}
    </section>
  )
}
