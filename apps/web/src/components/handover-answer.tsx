import type { TAnswerConditionInput, THandover } from '@circles/shared'
import { useState } from 'react'
import { ConditionAnswerFields, useAnswerCondition } from '@/components/condition/condition-answer'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Textarea } from '@/components/ui/textarea'
import { formatDue } from '@/lib/lending/dates'
import { personName } from '@/lib/person-name'

export interface HandoverAnswerProps {
  /** A PENDING handover whose receiver is the viewer (its `secretMessage` is theirs to read). */
  handover: THandover
  busy: boolean
  /**
   * `condition`: the receiver's photos and note, or 'as described' (issue 28); undefined when they
   * recorded nothing. A rejection carries it too: it stays with the request's history.
   */
  onAnswer: (
    status: 'CONFIRMED' | 'REJECTED',
    receiverComment: string,
    condition: TAnswerConditionInput | undefined,
  ) => Promise<unknown> | void
}

/**
 * The receiver's answer where the request is shown (the item page, the dashboard's 'Waiting for you'):
 * the sender's message, the secret message meant for the receiver, what the handover gives, an optional
 * reply, Accept and Reject. Texts in the `common` namespace, loaded on every page.
 */
export function HandoverAnswer({ handover, busy, onAnswer }: HandoverAnswerProps) {
  const { t, i18n } = useTranslation('common')
  const language = i18n.resolvedLanguage ?? i18n.language
  const [comment, setComment] = useState('')
  const condition = useAnswerCondition(handover)
  const sender = personName(handover.sender.name)
  const answer = (status: 'CONFIRMED' | 'REJECTED') => {
    const sent = onAnswer(status, comment, condition.body())
    // Once the answer is in, its photos are attached (or, set aside by 'as described', deleted).
    if (sent) void sent.then(condition.settle, () => undefined)
  }
  return (
    <div className="flex flex-col gap-3">
      {handover.kind === 'LOAN' && handover.dueAt ? (
        // Issue 26: the return date, read before accepting.
        <p className="text-sm font-medium">
          {t('handoverAnswer.lendUntil', { date: formatDue(handover.dueAt, language) })}
        </p>
      ) : handover.kind === 'RETURN' ? (
        <p className="text-sm font-medium">{t('handoverAnswer.returnOf', { item: handover.item.name })}</p>
      ) : (
        <p className="text-sm text-fg-muted">
          {t(handover.completeOwnership ? 'handoverAnswer.gives.complete' : 'handoverAnswer.gives.partial')}
        </p>
      )}
      {handover.requesterComment ? (
        <p className="text-sm break-words">
          <span className="text-fg-muted">{t('handoverAnswer.senderSaid', { name: sender })} </span>
          {handover.requesterComment}
        </p>
      ) : null}
      {handover.secretMessage ? (
        <p className="rounded-md border border-accent/25 bg-accent-soft p-3 text-sm break-words text-accent-text">
          <span className="font-medium">{t('handoverAnswer.secretForYou')} </span>
          {handover.secretMessage}
        </p>
      ) : null}
      <FormField label={t('handoverAnswer.reply')} hint={t('handoverAnswer.optional')}>
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
          needsServer
          disabled={busy || condition.blocker !== null}
          aria-busy={busy || undefined}
          onClick={() => answer('CONFIRMED')}
        >
          {t('handoverAnswer.accept')}
        </Button>
        <Button
          needsServer
          variant="secondary"
          disabled={busy || condition.blocker !== null}
          aria-busy={busy || undefined}
          onClick={() => answer('REJECTED')}
        >
          {t('handoverAnswer.reject')}
        </Button>
      </div>
    </div>
  )
}
