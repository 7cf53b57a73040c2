import type { THandover } from '@circles/shared'
import type { UseQueryResult } from '@tanstack/react-query'
import { ArrowRight, Camera, Link2, RotateCw } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ConditionSideView, hasEvidence } from '@/components/condition/condition-view'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { personName } from '@/lib/person-name'
import { formatItemDate } from './item-dates'

/** A handover with condition evidence on either side ('as described' counts: it refers to the sender's). */
export function withEvidence(handovers: readonly THandover[]): THandover[] {
  return handovers
    .filter(
      (h) => hasEvidence(h.condition.sender) || hasEvidence(h.condition.receiver) || h.condition.asDescribed,
    )
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
}

/**
 * The item's condition timeline (issue 28): each handover that recorded photos or notes, newest first,
 * as a story: when, who handed it to whom, what kind, both sides' photos and notes, and for a confirmed
 * one the ledger block that commits to them.
 */
export function ConditionTimeline({ handovers }: { handovers: UseQueryResult<THandover[]> }) {
  const { t } = useTranslation('items')
  let body
  if (handovers.isPending) {
    body = (
      <div role="status" className="flex flex-col gap-3">
        <span className="sr-only">{t('condition.loading')}</span>
        {[0, 1].map((row) => (
          <div
            key={row}
            aria-hidden="true"
            className="flex flex-col gap-2 rounded-md border border-border p-4"
          >
            <span className="h-4 w-1/2 animate-pulse rounded-sm bg-surface-2" />
            <span className="h-16 w-2/3 animate-pulse rounded-sm bg-surface-2" />
          </div>
        ))}
      </div>
    )
  } else if (handovers.isError) {
    body = (
      <div role="alert" className="flex flex-col items-start gap-2 text-sm">
        <p className="text-fg-muted">{t('condition.loadFailed')}</p>
        <Button
          variant="secondary"
          size="sm"
          icon={<RotateCw aria-hidden="true" />}
          onClick={() => void handovers.refetch()}
        >
          {t('condition.retry')}
        </Button>
      </div>
    )
  } else {
    const entries = withEvidence(handovers.data)
    body = entries.length ? (
      <ol className="flex flex-col gap-4">
        {entries.map((handover) => (
          <TimelineEntry key={handover.id} handover={handover} />
        ))}
      </ol>
    ) : (
      <div className="flex items-start gap-3 text-sm text-fg-muted">
        <Camera aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <p>{t('condition.empty')}</p>
      </div>
    )
  }
  return (
    <section
      aria-labelledby="item-condition"
      className="flex flex-col gap-3 rounded-lg border border-border bg-surface p-5 shadow-sm"
    >
      <div className="flex flex-col gap-1">
        <h2 id="item-condition" className="font-semibold tracking-tight">
          {t('condition.title')}
        </h2>
        <p className="text-sm text-fg-muted">{t('condition.intro')}</p>
      </div>
      {body}
    </section>
  )
}

function TimelineEntry({ handover }: { handover: THandover }) {
  const { t, i18n } = useTranslation('items')
  const { t: tl } = useTranslation('loans')
  const language = i18n.resolvedLanguage ?? i18n.language
  const sender = personName(handover.sender.name)
  const receiver = personName(handover.receiver.name)
  const { sender: sent, receiver: received, asDescribed } = handover.condition
  const when = handover.answeredAt ?? handover.createdAt
  return (
    <li className="flex flex-col gap-3 rounded-md border border-border p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="flex flex-wrap items-center gap-1.5 text-sm font-medium">
          <time dateTime={when}>{formatItemDate(when, language)}</time>
          <span aria-hidden="true" className="text-fg-subtle">
            ·
          </span>
          {sender}
          <ArrowRight aria-label={t('handover.to')} className="size-4 text-fg-subtle rtl:rotate-180" />
          {receiver}
        </h3>
        <div className="flex flex-wrap gap-2">
          <Badge tone="neutral">{t(`condition.kind.${handover.kind}`)}</Badge>
          {handover.status !== 'CONFIRMED' ? (
            <Badge tone={handover.status === 'PENDING' ? 'warning' : 'neutral'}>
              {t(`handover.status.${handover.status}`)}
            </Badge>
          ) : null}
        </div>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <ConditionSideView
          side={sent}
          title={tl('condition.senderRecorded', { name: sender })}
          person={sender}
        />
        {asDescribed ? (
          <div className="flex flex-col gap-2">
            <h4 className="text-sm font-medium">{tl('condition.receiverRecorded', { name: receiver })}</h4>
            <p className="text-sm">{tl('condition.acceptedAsDescribed')}</p>
          </div>
        ) : handover.status === 'PENDING' ? (
          <div className="flex flex-col gap-2">
            <h4 className="text-sm font-medium">{tl('condition.receiverRecorded', { name: receiver })}</h4>
            <p className="text-sm text-fg-muted">{t('condition.notYetAnswered')}</p>
          </div>
        ) : (
          <ConditionSideView
            side={received}
            title={tl('condition.receiverRecorded', { name: receiver })}
            person={receiver}
          />
        )}
      </div>
      {handover.status === 'CONFIRMED' && handover.block ? (
        <Link
          to={`/blockchain/${handover.block.id}`}
          className="inline-flex items-center gap-1.5 self-start text-sm font-medium text-accent-text underline"
        >
          <Link2 aria-hidden="true" className="size-4" />
          {t('condition.recordedIn', { height: handover.block.height })}
        </Link>
      ) : null}
    </li>
  )
}
