import type { TAnswerConditionInput, THandover } from '@circles/shared'
import { ArrowRight } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Badge, type BadgeTone } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { ConditionAnswerFields, useAnswerCondition } from '@/components/condition/condition-answer'
import { ConditionSideView, hasEvidence } from '@/components/condition/condition-view'
import { FormField } from '@/components/ui/form-field'
import { Textarea } from '@/components/ui/textarea'
import { formatDue } from '@/lib/lending/dates'
import { formatItemDate } from './item-dates'
import { ShortHash } from './short-hash'
import { personName } from '@/lib/person-name'

const STATUS_TONE: Record<THandover['status'], BadgeTone> = {
  PENDING: 'warning',
  CONFIRMED: 'success',
  REJECTED: 'danger',
  CANCELLED: 'neutral',
}

export interface HandoverCardProps {
  handover: THandover
  viewerId: string | undefined
  busy: boolean
  /** `condition`: the receiver's photos and note, or 'as described' (issue 28). */
  onAnswer: (
    status: 'CONFIRMED' | 'REJECTED',
    receiverComment: string,
    condition: TAnswerConditionInput | undefined,
  ) => Promise<unknown>
  onCancel: () => void
}

/** One entry of an item's handover history, with the answer or cancel the viewer may give. */
export function HandoverCard({ handover, viewerId, busy, onAnswer, onCancel }: HandoverCardProps) {
  const { t, i18n } = useTranslation('items')
  const { t: tl } = useTranslation('loans')
  const [comment, setComment] = useState('')
  const language = i18n.resolvedLanguage ?? i18n.language
  const pending = handover.status === 'PENDING'
  const isReceiver = handover.receiverId === viewerId
  const isSender = handover.senderId === viewerId
  const condition = useAnswerCondition(handover)
  const answer = (status: 'CONFIRMED' | 'REJECTED') =>
    void onAnswer(status, comment, condition.body()).then(condition.settle, () => undefined)
  const sender = personName(handover.sender.name)
  const receiver = personName(handover.receiver.name)
  const { sender: sent, receiver: received, asDescribed } = handover.condition
  // The receiver answering sees the sender's side in the answer itself.
  const answering = pending && isReceiver

  return (
    <li className="flex flex-col gap-3 rounded-lg border border-border bg-surface p-4 shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="flex flex-wrap items-center gap-1.5 font-medium">
          {personName(handover.sender.name)}
          <ArrowRight aria-label={t('handover.to')} className="size-4 text-fg-subtle rtl:rotate-180" />
          {personName(handover.receiver.name)}
        </p>
        <Badge tone={STATUS_TONE[handover.status]}>{t(`handover.status.${handover.status}`)}</Badge>
      </div>
      <p className="text-sm text-fg-muted">
        {t('handover.requestedOn', { date: formatItemDate(handover.createdAt, language) })}
        {handover.answeredAt && handover.status !== 'PENDING'
          ? ` · ${t(`handover.answeredOn.${handover.status}`, { date: formatItemDate(handover.answeredAt, language) })}`
          : null}
        {' · '}
        {handover.kind === 'LOAN' && handover.dueAt
          ? tl('history.loanUntil', { date: formatDue(handover.dueAt, language) })
          : handover.kind === 'RETURN'
            ? tl('history.return')
            : t(handover.completeOwnership ? 'handover.complete' : 'handover.partial')}
      </p>
      {handover.requesterComment ? (
        <p className="text-sm">
          <span className="text-fg-muted">
            {t('handover.senderSaid', { name: personName(handover.sender.name) })}{' '}
          </span>
          {handover.requesterComment}
        </p>
      ) : null}
      {handover.secretMessage ? (
        <p className="rounded-md border border-accent/25 bg-accent-soft p-3 text-sm text-accent-text">
          <span className="font-medium">{t('handover.secretForYou')} </span>
          {handover.secretMessage}
        </p>
      ) : handover.hasSecretMessage && isSender ? (
        <p className="text-sm text-fg-muted">
          {t('handover.secretSent', { name: personName(handover.receiver.name) })}
        </p>
      ) : null}
      {handover.receiverComment ? (
        <p className="text-sm">
          <span className="text-fg-muted">
            {t('handover.receiverSaid', { name: personName(handover.receiver.name) })}{' '}
          </span>
          {handover.receiverComment}
        </p>
      ) : null}
      {(hasEvidence(sent) && !answering) || hasEvidence(received) || asDescribed ? (
        <div className="grid gap-4 rounded-md border border-border p-3 sm:grid-cols-2">
          {hasEvidence(sent) && !answering ? (
            <ConditionSideView
              side={sent}
              title={
                isSender ? tl('condition.youRecorded') : tl('condition.senderRecorded', { name: sender })
              }
              person={sender}
            />
          ) : null}
          {asDescribed ? (
            <p className="text-sm">
              <span className="font-medium">{tl('condition.receiverSide', { name: receiver })}</span>{' '}
              {tl('condition.acceptedAsDescribed')}
            </p>
          ) : hasEvidence(received) ? (
            <ConditionSideView
              side={received}
              title={tl('condition.receiverRecorded', { name: receiver })}
              person={receiver}
            />
          ) : null}
        </div>
      ) : null}
      {handover.block ? (
        <p className="text-sm">
          <Link to={`/blockchain/${handover.block.id}`} className="font-medium text-accent-text underline">
            {t('handover.block')}
          </Link>{' '}
          <ShortHash hash={handover.block.hash} />
        </p>
      ) : null}

      {pending && isReceiver ? (
        <div className="flex flex-col gap-3 border-t border-border pt-3">
          <FormField label={t('handover.receiverComment')} hint={t('handover.optional')}>
            {(field) => (
              <Textarea
                {...field}
                rows={2}
                value={comment}
                onChange={(event) => setComment(event.target.value)}
              />
            )}
          </FormField>
          <ConditionAnswerFields handover={handover} condition={condition} disabled={busy} />
          {condition.blocker ? <p className="text-sm text-fg-muted">{condition.blocker}</p> : null}
          <div className="flex flex-wrap gap-2">
            <Button
              disabled={busy || condition.blocker !== null}
              aria-busy={busy || undefined}
              onClick={() => answer('CONFIRMED')}
            >
              {t('handover.accept')}
            </Button>
            <Button
              variant="secondary"
              disabled={busy || condition.blocker !== null}
              aria-busy={busy || undefined}
              onClick={() => answer('REJECTED')}
            >
              {t('handover.reject')}
            </Button>
          </div>
        </div>
      ) : null}
      {pending && isSender ? (
        <div className="border-t border-border pt-3">
          <Button variant="secondary" disabled={busy} aria-busy={busy || undefined} onClick={onCancel}>
            {t('handover.cancel')}
          </Button>
        </div>
      ) : null}
    </li>
  )
}
