import type { TCircleMember, TCreateHandoverInput } from '@circles/shared'
import { Send } from 'lucide-react'
import { useId } from 'react'
import { Controller, useForm, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { ConditionEditor } from '@/components/condition/condition-editor'
import { useConditionPhotos } from '@/components/condition/use-condition-photos'
import { DueFields } from '@/components/lending/due-fields'
import { Button } from '@/components/ui/button'
import { Checkbox } from '@/components/ui/checkbox'
import { Form } from '@/components/ui/form'
import { FormField } from '@/components/ui/form-field'
import { Select } from '@/components/ui/select'
import { Textarea } from '@/components/ui/textarea'
import { DEFAULT_LOAN_DAYS, dateInDays, dueAtFrom, END_OF_DAY } from '@/lib/lending/dates'

type Values = {
  receiverId: string
  requesterComment: string
  secretMessage: string
  completeOwnership: boolean
  /** Issue 26: hand it over, or lend it until a date (complete owners only). */
  kind: 'TRANSFER' | 'LOAN'
  due: { date: string; time: string }
  /** Issue 28: the condition note beside the photos (which live in useConditionPhotos). */
  conditionNote: string
}

export interface HandoverFormProps {
  itemId: string
  members: TCircleMember[]
  /** Only a holder with complete ownership may pass complete ownership on. */
  canGiveComplete: boolean
  pending: boolean
  onSubmit: (request: TCreateHandoverInput) => void
}

/**
 * The create-request form (spec 001 §5): the button stays disabled until a receiver is chosen. A holder
 * with complete ownership hands it over or lends it (issue 26): a loan has a return date and time, by
 * default a week ahead at the end of the day in the lender's time zone.
 */
export function HandoverForm({ itemId, members, canGiveComplete, pending, onSubmit }: HandoverFormProps) {
  const { t } = useTranslation('items')
  const { t: tl } = useTranslation('loans')
  const kindName = useId()
  const form = useForm<Values>({
    defaultValues: {
      receiverId: '',
      requesterComment: '',
      secretMessage: '',
      completeOwnership: false,
      kind: 'TRANSFER',
      due: { date: dateInDays(DEFAULT_LOAN_DAYS), time: END_OF_DAY },
      conditionNote: '',
    },
  })
  const photos = useConditionPhotos()
  const conditionNote = useWatch({ control: form.control, name: 'conditionNote' })
  const receiverId = useWatch({ control: form.control, name: 'receiverId' })
  const kind = useWatch({ control: form.control, name: 'kind' })
  const lending = canGiveComplete && kind === 'LOAN'
  const waiting = photos.uploading
    ? tl('condition.waitForUploads')
    : photos.failed
      ? tl('condition.fixFailed')
      : null
  const submit = form.handleSubmit((values) => {
    if (waiting) return
    const note = values.conditionNote.trim()
    const base = {
      itemId,
      receiverId: values.receiverId,
      requesterComment: values.requesterComment,
      secretMessage: values.secretMessage,
      // Issue 28: sent only when there is something, so a request without evidence stays as it was.
      ...(photos.photoIds.length || note
        ? { condition: { photoIds: photos.photoIds, note: note || null } }
        : {}),
    }
    if (!lending) {
      onSubmit({ ...base, completeOwnership: canGiveComplete && values.completeOwnership })
      return
    }
    const picked = dueAtFrom(values.due.date, values.due.time)
    if ('error' in picked) {
      form.setError('due', { message: tl(`due.${picked.error}`) })
      return
    }
    onSubmit({ ...base, completeOwnership: false, kind: 'LOAN', dueAt: picked.dueAt })
  })

  return (
    <Form form={form} onSubmit={submit} noValidate className="flex flex-col gap-4">
      {canGiveComplete ? (
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium text-fg">{tl('handover.kind')}</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {(['TRANSFER', 'LOAN'] as const).map((value) => (
              <label
                key={value}
                className="flex cursor-pointer items-start gap-3 rounded-md border border-border p-3 has-[:checked]:border-accent has-[:checked]:bg-accent-soft"
              >
                <input
                  type="radio"
                  name={kindName}
                  value={value}
                  checked={kind === value}
                  onChange={() => form.setValue('kind', value)}
                  className="mt-0.5 size-4 shrink-0 accent-accent"
                />
                <span className="flex flex-col gap-0.5">
                  <span className="text-sm font-medium">{tl(`handover.${value}.label`)}</span>
                  <span className="text-sm text-fg-muted">{tl(`handover.${value}.hint`)}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      <FormField label={t('handover.receiver')}>
        {(field) => (
          <Select {...field} {...form.register('receiverId')}>
            <option value="">{t('handover.chooseReceiver')}</option>
            {members.map((member) => (
              <option key={member.userId} value={member.userId}>
                {member.user.name}
              </option>
            ))}
          </Select>
        )}
      </FormField>
      <FormField label={t('handover.comment')} hint={t('handover.optional')}>
        {(field) => <Textarea {...field} rows={2} {...form.register('requesterComment')} />}
      </FormField>
      <FormField label={t('handover.secret')} hint={t('handover.secretHint')}>
        {(field) => <Textarea {...field} rows={2} {...form.register('secretMessage')} />}
      </FormField>
      {lending ? (
        <Controller
          control={form.control}
          name="due"
          render={({ field, fieldState }) => (
            <DueFields
              value={field.value}
              onChange={(value) => {
                form.clearErrors('due')
                field.onChange(value)
              }}
              dateLabel={tl('handover.dueDate')}
              error={fieldState.error?.message}
            />
          )}
        />
      ) : null}
      {canGiveComplete && !lending ? (
        <Checkbox
          label={t('handover.completeOwnership')}
          description={t('handover.completeHint')}
          {...form.register('completeOwnership')}
        />
      ) : null}
      <ConditionEditor
        photos={photos}
        note={conditionNote}
        onNoteChange={(note) => form.setValue('conditionNote', note)}
        disabled={pending}
      />
      {waiting ? <p className="text-sm text-fg-muted">{waiting}</p> : null}
      <Button
        type="submit"
        icon={<Send aria-hidden="true" />}
        disabled={!receiverId || waiting !== null}
        loading={pending}
        className="self-start"
      >
        {lending ? tl('handover.lend') : t('handover.create')}
      </Button>
    </Form>
  )
}
