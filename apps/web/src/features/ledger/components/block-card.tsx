import { checkBlock } from '@circles/ledger'
import type { TBlock } from '@circles/shared'
import { Camera, Info, ShieldAlert, ShieldCheck } from 'lucide-react'
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { PrivateImage } from '@/components/private-image'
import { Badge } from '@/components/ui/badge'
import { conditionSummary } from '@/lib/ledger-verification/condition-evidence'
import { personName } from '@/lib/person-name'
import { useHydrated } from '@/lib/use-hydrated'
import { Hash } from './hash'
import { dateFormat } from '@/lib/intl-formats'

/**
 * Whether the block's content hashes to its recorded hash (and a v3 block's names open its
 * commitments), computed here rather than taken on trust; 'redacted' for a block written before names
 * were kept apart whose names were erased: its hash cannot be recomputed (docs/decisions/0034).
 */
export function useHashChecks(block: TBlock): 'ok' | 'redacted' | 'mismatch' {
  return useMemo(() => checkBlock(block), [block])
}

/** A person of the block as shown: 'Deleted member' once their name was erased or redacted. */
export function partyName(block: TBlock, side: 'from' | 'to'): string {
  return personName(block.names[side].name)
}

/** The calm note on a block whose content was partly erased when a member deleted their account. */
export function RedactedNote({ block }: { block: TBlock }) {
  const { t } = useTranslation('ledger')
  if (block.redacted.length === 0) return null
  return (
    <p className="flex items-start gap-1.5 text-sm text-fg-muted" data-testid="block-redacted-note">
      <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      {t('redacted.note')}
    </p>
  )
}

export function formatBlockTime(iso: string, language: string): string {
  return dateFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso))
}

/** Why an automatic transfer happened, as its block says (v2, v3); a v1 block does not say. */
export function transferReason(block: TBlock): 'LEFT' | 'REMOVED' | null {
  return block.content.v === 1 ? null : block.content.reason
}

/** A v4/v5 block's loan: the return date it carries (LOAN, LOAN_CHANGE), null otherwise (issue 26). */
export function loanDueAt(block: TBlock): string | null {
  const { content } = block
  return content.v === 4 || content.v === 5 ? (content.loan?.dueAt ?? null) : null
}

/** Whether the block is a step of a loan (v4): its badge says so instead of the ownership. */
export const isLoanBlock = (block: TBlock) =>
  block.content.kind === 'LOAN' || block.content.kind === 'RETURN' || block.content.kind === 'LOAN_CHANGE'

/**
 * One block, told as what happened: who handed what to whom, and when (and why, for a transfer); a loan's
 * steps as the item's story: lent until a date, the date changed, returned (issue 26).
 */
export function BlockStory({ block }: { block: TBlock }) {
  const { t, i18n } = useTranslation('ledger')
  const { content } = block
  const language = i18n.resolvedLanguage ?? i18n.language
  const dueAt = loanDueAt(block)
  const names = {
    from: partyName(block, 'from'),
    item: content.item.name,
    to: partyName(block, 'to'),
    date: dueAt ? formatBlockTime(dueAt, language) : '',
  }
  const reason = transferReason(block)
  return <p className="font-medium">{storyText(t, content.kind, reason, names)}</p>
}

function storyText(
  t: ReturnType<typeof useTranslation<'ledger'>>['t'],
  kind: TBlock['content']['kind'],
  reason: 'LEFT' | 'REMOVED' | null,
  names: { from: string; item: string; to: string; date: string },
): string {
  switch (kind) {
    case 'HANDOVER':
      return t('story.handover', names)
    case 'LOAN':
      return t('story.loan', names)
    case 'RETURN':
      return t('story.return', names)
    case 'LOAN_CHANGE':
      return reason === 'REMOVED'
        ? t('story.loanRecalledRemoved', names)
        : reason === 'LEFT'
          ? t('story.loanRecalledLeft', names)
          : t('story.loanChange', names)
    default:
      return reason === 'REMOVED'
        ? t('story.autoRemoved', names)
        : reason === 'LEFT'
          ? t('story.autoLeft', names)
          : t('story.auto', names)
  }
}

/** The block's kind in a word (the block page's Kind row, a loan block's badge). */
export function kindLabel(t: ReturnType<typeof useTranslation<'ledger'>>['t'], block: TBlock): string {
  switch (block.content.kind) {
    case 'HANDOVER':
      return t('block.handover')
    case 'LOAN':
      return t('block.loan')
    case 'RETURN':
      return t('block.return')
    case 'LOAN_CHANGE':
      return t('block.loanChange')
    default:
      return t('block.auto')
  }
}

/** The block's own hash check, and once the device check passed, its place in the signed log. */
export function HashCheck({ block, inLog = false }: { block: TBlock; inLog?: boolean }) {
  const { t } = useTranslation('ledger')
  const check = useHashChecks(block)
  // The server cannot check anything for this device: its render (docs/decisions/0068), and the browser's
  // hydration of it, keep the line's place, hidden and claiming nothing, until the browser has checked.
  if (!useHydrated()) {
    return (
      <span aria-hidden="true" className="invisible inline-flex items-center gap-1 text-xs">
        <ShieldCheck className="size-4" />
        {t('hashChecks')}
      </span>
    )
  }
  if (check === 'redacted') {
    return (
      <span className="inline-flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-fg-muted">
        <span className="inline-flex items-center gap-1">
          <Info aria-hidden="true" className="size-4" />
          {t('redacted.hashKept')}
        </span>
        {inLog ? (
          <span className="inline-flex items-center gap-1 text-success">
            <ShieldCheck aria-hidden="true" className="size-4" />
            {t('device.inLog')}
          </span>
        ) : null}
      </span>
    )
  }
  return check === 'ok' ? (
    <span className="inline-flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-success">
      <span className="inline-flex items-center gap-1">
        <ShieldCheck aria-hidden="true" className="size-4" />
        {t('hashChecks')}
      </span>
      {inLog ? (
        <span className="inline-flex items-center gap-1">
          <ShieldCheck aria-hidden="true" className="size-4" />
          {t('device.inLog')}
        </span>
      ) : null}
    </span>
  ) : (
    <span className="inline-flex items-center gap-1 text-xs font-medium text-danger">
      <ShieldAlert aria-hidden="true" className="size-4" />
      {t('hashMismatch')}
    </span>
  )
}

/** A small mark on a block that records the item's condition (issue 28): how many photos it commits to. */
export function ConditionBadge({ block }: { block: TBlock }) {
  const { t } = useTranslation('ledger')
  const summary = conditionSummary(block)
  if (!summary || (summary.photos === 0 && summary.notes === 0)) return null
  return (
    <Badge tone="neutral" className="gap-1" data-testid="condition-badge">
      <Camera aria-hidden="true" className="size-3.5" />
      {summary.photos > 0 ? t('condition.photoCount', { count: summary.photos }) : t('condition.noteOnly')}
    </Badge>
  )
}

export function BlockCard({ block, inLog = false }: { block: TBlock; inLog?: boolean }) {
  const { t, i18n } = useTranslation('ledger')
  const { content } = block
  const language = i18n.resolvedLanguage ?? i18n.language
  return (
    <li className="flex gap-4 rounded-lg border border-border bg-surface p-4 shadow-sm">
      <PrivateImage
        url={block.item?.thumbnailUrl ?? null}
        alt={t('pictureOf', { name: content.item.name })}
        className="size-16 shrink-0 rounded-md border border-border"
      />
      <div className="flex min-w-0 flex-1 flex-col gap-1.5">
        <div className="flex flex-wrap items-center gap-2">
          <Link to={`/blockchain/${block.id}`} className="text-sm font-semibold text-accent-text underline">
            {t('blockNumber', { height: content.height })}
          </Link>
          {isLoanBlock(block) ? (
            <Badge tone="info">{kindLabel(t, block)}</Badge>
          ) : (
            <Badge tone={content.ownership === 'COMPLETE' ? 'accent' : 'neutral'}>
              {t(content.ownership === 'COMPLETE' ? 'complete' : 'partial')}
            </Badge>
          )}
          {content.first ? <Badge tone="info">{t('firstBlock')}</Badge> : null}
          <ConditionBadge block={block} />
          <span className="text-sm text-fg-muted">
            <time dateTime={content.time}>{formatBlockTime(content.time, language)}</time> ·{' '}
            {content.circle.name}
          </span>
        </div>
        <BlockStory block={block} />
        <RedactedNote block={block} />
        {block.comments.requesterComment ? (
          <p className="text-sm text-fg-muted">
            {partyName(block, 'from')}: {block.comments.requesterComment}
          </p>
        ) : null}
        {block.comments.receiverComment ? (
          <p className="text-sm text-fg-muted">
            {partyName(block, 'to')}: {block.comments.receiverComment}
          </p>
        ) : null}
        {block.comments.secretMessage ? (
          <p className="text-sm text-accent-text">
            {t('secretForYou')} {block.comments.secretMessage}
          </p>
        ) : null}
        <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-fg-muted">
          <span className="inline-flex items-center gap-1">
            {t('hash')} <Hash hash={block.hash} label={t('hash')} />
          </span>
          <span className="inline-flex items-center gap-1">
            {t('prevHash')} <Hash hash={content.prevHash} label={t('prevHash')} />
          </span>
          <HashCheck block={block} inLog={inLog} />
        </div>
      </div>
    </li>
  )
}
