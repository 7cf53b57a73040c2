import type { THandover } from '@circles/shared'
import { useState } from 'react'
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
  onAnswer: (status: 'CONFIRMED' | 'REJECTED', receiverComment: string) => void
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
  const sender = personName(handover.sender.name)
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
      <div className="flex flex-wrap gap-2">
        <Button needsServer disabled={busy} onClick={() => onAnswer('CONFIRMED', comment)}>
          {t('handoverAnswer.accept')}
        </Button>
        <Button needsServer variant="secondary" disabled={busy} onClick={() => onAnswer('REJECTED', comment)}>
          {t('handoverAnswer.reject')}
        </Button>
      </div>
    </div>
  )
}
