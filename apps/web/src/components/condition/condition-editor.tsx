import { LIMITS } from '@circles/shared'
import { Camera, RotateCw, X } from 'lucide-react'
import { lazy, Suspense, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { FileButton } from '@/components/ui/file-button'
import { FormField } from '@/components/ui/form-field'
import { Spinner } from '@/components/ui/spinner'
import { Textarea } from '@/components/ui/textarea'
import { cn } from '@/lib/class-names'
import { PICTURE_TYPES } from '@/lib/picture-check'
import type { ConditionPhotos, PhotoSlot } from './use-condition-photos'

/** The camera's code loads when the camera is first asked for (docs/decisions/0055). */
const CameraDialog = lazy(() =>
  import('@/components/camera/camera-dialog').then((m) => ({ default: m.CameraDialog })),
)

export interface ConditionEditorProps {
  photos: ConditionPhotos
  note: string
  onNoteChange(note: string): void
  /** E.g. while the request is on its way, or while 'accept as described' is ticked. */
  disabled?: boolean
  /** Says why the fields are disabled, when they are. */
  disabledReason?: string
  /** The section's heading: 'Condition' for a request, 'Your own photos and note' for an answer. */
  legend?: string
  hint?: string
}

/**
 * One side's condition evidence while it is being recorded (issue 28): up to four photos, from the
 * camera or from files, each uploaded at once with its progress, failure and ×; and a note. Optional.
 */
export function ConditionEditor({
  photos,
  note,
  onNoteChange,
  disabled = false,
  disabledReason,
  legend,
  hint,
}: ConditionEditorProps) {
  const { t } = useTranslation('loans')
  const [cameraOpen, setCameraOpen] = useState(false)
  /** Mounted from the first open on, so closing it keeps its own behaviour (focus back, stream stopped). */
  const [cameraWanted, setCameraWanted] = useState(false)
  const fileInputId = useId()
  const reasonId = useId()
  const hintId = useId()
  const addDisabled = disabled || photos.full
  const reason = disabled
    ? disabledReason
    : photos.full
      ? t('condition.full', { max: LIMITS.conditionPhotosMax })
      : undefined

  return (
    <fieldset
      aria-describedby={hintId}
      className="flex min-w-0 flex-col gap-3 rounded-md border border-border p-4"
    >
      <legend className="px-1 text-sm font-semibold text-fg">{legend ?? t('condition.title')}</legend>
      <p id={hintId} className="-mt-1 text-sm text-fg-muted">
        {hint ?? t('condition.hint', { max: LIMITS.conditionPhotosMax })}
      </p>

      {photos.slots.length ? (
        <ul
          aria-label={t('condition.photosLabel')}
          className="grid grid-cols-2 gap-3 sm:max-w-xl sm:grid-cols-4"
        >
          {photos.slots.map((slot, index) => (
            <PhotoTile
              key={slot.key}
              slot={slot}
              number={index + 1}
              disabled={disabled}
              onRemove={() => photos.remove(slot.key)}
              onRetry={() => photos.retry(slot.key)}
            />
          ))}
        </ul>
      ) : null}

      <div className="flex flex-wrap items-center gap-2">
        <Button
          variant="secondary"
          size="sm"
          icon={<Camera aria-hidden="true" />}
          disabled={addDisabled}
          aria-describedby={reason ? reasonId : undefined}
          onClick={() => {
            setCameraWanted(true)
            setCameraOpen(true)
          }}
        >
          {t('condition.takePhoto')}
        </Button>
        <FileButton
          id={fileInputId}
          accept={PICTURE_TYPES}
          multiple
          disabled={addDisabled}
          aria-describedby={reason ? reasonId : undefined}
          aria-label={t('condition.choosePhotos')}
          onChange={(event) => {
            photos.add(Array.from(event.currentTarget.files ?? []))
            event.currentTarget.value = ''
          }}
        >
          {t('condition.choosePhotos')}
        </FileButton>
        <span className="basis-full text-sm text-fg-muted tabular-nums sm:basis-auto">
          {t('condition.count', { count: photos.slots.length, max: LIMITS.conditionPhotosMax })}
        </span>
      </div>
      {reason ? (
        <p id={reasonId} className="text-sm text-fg-muted">
          {reason}
        </p>
      ) : null}
      {photos.notice ? (
        <p role="alert" className="text-sm text-danger">
          {photos.notice}
        </p>
      ) : null}

      <FormField
        label={t('condition.note')}
        hint={t('condition.noteHint', { count: note.length, max: LIMITS.conditionNoteMax })}
      >
        {(field) => (
          <Textarea
            {...field}
            rows={2}
            maxLength={LIMITS.conditionNoteMax}
            value={note}
            disabled={disabled}
            placeholder={t('condition.notePlaceholder')}
            onChange={(event) => onNoteChange(event.target.value)}
          />
        )}
      </FormField>

      {cameraWanted ? (
        <Suspense fallback={null}>
          <CameraDialog
            open={cameraOpen}
            onClose={() => setCameraOpen(false)}
            onConfirm={(file) => {
              setCameraOpen(false)
              photos.add([file])
            }}
          />
        </Suspense>
      ) : null}
    </fieldset>
  )
}

function PhotoTile({
  slot,
  number,
  disabled,
  onRemove,
  onRetry,
}: {
  slot: PhotoSlot
  number: number
  disabled: boolean
  onRemove(): void
  onRetry(): void
}) {
  const { t } = useTranslation('loans')
  const busy = slot.phase === 'preparing' || slot.phase === 'uploading'
  const status =
    slot.phase === 'preparing'
      ? t('condition.preparing')
      : slot.phase === 'uploading'
        ? t('condition.uploading', { percent: slot.percent })
        : slot.phase === 'failed'
          ? t('condition.failed')
          : t('condition.uploaded')
  return (
    <li className="flex min-w-0 flex-col gap-1.5">
      <div
        className={cn(
          'relative aspect-square overflow-hidden rounded-md border bg-surface-2',
          slot.phase === 'failed' ? 'border-danger' : 'border-border',
        )}
      >
        <img
          src={slot.preview}
          alt={t('condition.photoAlt', { number })}
          className={cn('size-full object-cover', busy && 'opacity-60')}
        />
        {busy ? (
          <div className="absolute inset-x-2 bottom-2 flex items-center gap-2 rounded-sm bg-surface/90 px-2 py-1">
            <Spinner size="sm" />
            {slot.phase === 'uploading' ? (
              <progress
                className="h-1.5 min-w-0 flex-1 overflow-hidden rounded-full accent-accent"
                max={100}
                value={slot.percent}
                aria-label={t('condition.uploading', { percent: slot.percent })}
              />
            ) : null}
          </div>
        ) : null}
      </div>
      <div className="flex items-center justify-between gap-1">
        <span
          role="status"
          className={cn(
            'min-w-0 truncate text-xs',
            slot.phase === 'failed' ? 'text-danger' : 'text-fg-muted',
          )}
        >
          {status}
        </span>
        <Button
          variant="ghost"
          size="sm"
          className="-me-2 shrink-0 px-2"
          aria-label={t('condition.remove', { number })}
          icon={<X aria-hidden="true" />}
          disabled={disabled}
          onClick={onRemove}
        />
      </div>
      {slot.phase === 'failed' ? (
        <div className="flex flex-col gap-1.5">
          <p className="text-xs break-words text-danger">{slot.message}</p>
          <Button
            variant="secondary"
            size="sm"
            icon={<RotateCw aria-hidden="true" />}
            disabled={disabled}
            onClick={onRetry}
          >
            {t('condition.retry')}
          </Button>
        </div>
      ) : null}
    </li>
  )
}
