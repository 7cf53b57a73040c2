import { LIMITS, type TAnswerConditionInput, type THandover } from '@circles/shared'
import { useCallback, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Checkbox } from '@/components/ui/checkbox'
import { personName } from '@/lib/person-name'
import { ConditionEditor } from './condition-editor'
import { ConditionSideView, hasEvidence } from './condition-view'
import { type ConditionPhotos, useConditionPhotos } from './use-condition-photos'

export type AnswerCondition = {
  photos: ConditionPhotos
  note: string
  setNote(note: string): void
  asDescribed: boolean
  setAsDescribed(value: boolean): void
  /** Offered only when the sender attached a photo or a note (else the server refuses it). */
  canAcceptAsDescribed: boolean
  /** What the answer carries; undefined when the receiver recorded nothing. */
  body(): TAnswerConditionInput | undefined
  /** Why the answer cannot go yet (a photo still uploading or failed), or null. */
  blocker: string | null
  /** After the answer: photos set aside by 'as described' are deleted; the rest are now attached. */
  settle(): void
}

/**
 * The receiver's side of the evidence while answering (issue 28): their own photos and note, or
 * 'accept as described'. Ticking it sets their own photos and note aside (disabled, not sent), so
 * both never go together; unticking brings them back.
 */
export function useAnswerCondition(handover: THandover): AnswerCondition {
  const { t } = useTranslation('loans')
  const photos = useConditionPhotos()
  const [note, setNote] = useState('')
  const [asDescribed, setAsDescribedState] = useState(false)
  const canAcceptAsDescribed = hasEvidence(handover.condition.sender)
  const setAsDescribed = useCallback(
    (value: boolean) => setAsDescribedState(value && canAcceptAsDescribed),
    [canAcceptAsDescribed],
  )
  const { photoIds, uploading, failed, reset } = photos
  return useMemo(() => {
    const trimmed = note.trim()
    return {
      photos,
      note,
      setNote,
      asDescribed,
      setAsDescribed,
      canAcceptAsDescribed,
      body: () =>
        asDescribed
          ? { photoIds: [], note: null, asDescribed: true }
          : photoIds.length || trimmed
            ? { photoIds, note: trimmed || null, asDescribed: false }
            : undefined,
      blocker: asDescribed
        ? null
        : uploading
          ? t('condition.waitForUploads')
          : failed
            ? t('condition.fixFailed')
            : null,
      settle: () => reset({ discard: asDescribed }),
    }
  }, [photos, note, asDescribed, setAsDescribed, canAcceptAsDescribed, photoIds, uploading, failed, reset, t])
}

/** The sender's photos and note, 'accept as described', and the receiver's own photos and note. */
export function ConditionAnswerFields({
  handover,
  condition,
  disabled = false,
}: {
  handover: THandover
  condition: AnswerCondition
  disabled?: boolean
}) {
  const { t } = useTranslation('loans')
  const sender = personName(handover.sender.name)
  return (
    <div className="flex flex-col gap-3">
      {condition.canAcceptAsDescribed ? (
        <div className="flex flex-col gap-3 rounded-md border border-border bg-surface p-4">
          <ConditionSideView
            side={handover.condition.sender}
            title={t('condition.senderRecorded', { name: sender })}
            person={sender}
          />
          <Checkbox
            label={t('condition.asDescribed')}
            description={t('condition.asDescribedHint', { name: sender })}
            checked={condition.asDescribed}
            disabled={disabled}
            onChange={(event) => condition.setAsDescribed(event.target.checked)}
          />
        </div>
      ) : null}
      <ConditionEditor
        photos={condition.photos}
        note={condition.note}
        onNoteChange={condition.setNote}
        disabled={disabled || condition.asDescribed}
        disabledReason={condition.asDescribed ? t('condition.setAside') : undefined}
        legend={t('condition.yourTitle')}
        hint={t('condition.yourHint', { max: LIMITS.conditionPhotosMax })}
      />
    </div>
  )
}
