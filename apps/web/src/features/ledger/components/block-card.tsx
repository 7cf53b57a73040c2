import { blockHash } from '@circles/ledger'
import type { TBlock } from '@circles/shared'
import { ShieldAlert, ShieldCheck } from 'lucide-react'
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { PrivateImage } from '@/components/private-image'
import { Badge } from '@/components/ui/badge'
import { Hash } from './hash'

/** Whether the block's content hashes to its recorded hash, computed here rather than taken on trust. */
export function useHashChecks(block: TBlock): boolean {
  return useMemo(() => blockHash(block.content) === block.hash, [block])
}

export function formatBlockTime(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso))
}

/** Why an automatic transfer happened, as its block says (v2); a v1 block does not say. */
export function transferReason(block: TBlock): 'LEFT' | 'REMOVED' | null {
  return block.content.v === 2 ? block.content.reason : null
}

/** One block, told as what happened: who handed what to whom, and when (and why, for a transfer). */
export function BlockStory({ block }: { block: TBlock }) {
  const { t } = useTranslation('ledger')
  const { content } = block
  const names = { from: content.from.name, item: content.item.name, to: content.to.name }
  const reason = transferReason(block)
  return (
    <p className="font-medium">
      {content.kind === 'HANDOVER'
        ? t('story.handover', names)
        : reason === 'REMOVED'
          ? t('story.autoRemoved', names)
          : reason === 'LEFT'
            ? t('story.autoLeft', names)
            : t('story.auto', names)}
    </p>
  )
}

/** The block's own hash check, and once the device check passed, its place in the signed log. */
export function HashCheck({ block, inLog = false }: { block: TBlock; inLog?: boolean }) {
  const { t } = useTranslation('ledger')
  const ok = useHashChecks(block)
  return ok ? (
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
          <Badge tone={content.ownership === 'COMPLETE' ? 'accent' : 'neutral'}>
            {t(content.ownership === 'COMPLETE' ? 'complete' : 'partial')}
          </Badge>
          {content.first ? <Badge tone="info">{t('firstBlock')}</Badge> : null}
          <span className="text-sm text-fg-muted">
            <time dateTime={content.time}>{formatBlockTime(content.time, language)}</time> ·{' '}
            {content.circle.name}
          </span>
        </div>
        <BlockStory block={block} />
        {block.comments.requesterComment ? (
          <p className="text-sm text-fg-muted">
            {content.from.name}: {block.comments.requesterComment}
          </p>
        ) : null}
        {block.comments.receiverComment ? (
          <p className="text-sm text-fg-muted">
            {content.to.name}: {block.comments.receiverComment}
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
