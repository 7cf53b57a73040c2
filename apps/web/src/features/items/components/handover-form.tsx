import type { TCircleMember, TCreateHandoverInput } from '@circles/shared'
import { Send } from 'lucide-react'
import { useForm, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Checkbox } from '@/components/ui/checkbox'
import { Form } from '@/components/ui/form'
import { FormField } from '@/components/ui/form-field'
import { Select } from '@/components/ui/select'
import { Textarea } from '@/components/ui/textarea'

type Values = {
  receiverId: string
  requesterComment: string
  secretMessage: string
  completeOwnership: boolean
}

export interface HandoverFormProps {
  itemId: string
  members: TCircleMember[]
  /** Only a holder with complete ownership may pass complete ownership on. */
  canGiveComplete: boolean
  pending: boolean
  onSubmit: (request: TCreateHandoverInput) => void
}

/** The create-request form (spec 001 §5): the button stays disabled until a receiver is chosen. */
export function HandoverForm({ itemId, members, canGiveComplete, pending, onSubmit }: HandoverFormProps) {
  const { t } = useTranslation('items')
  const form = useForm<Values>({
    defaultValues: { receiverId: '', requesterComment: '', secretMessage: '', completeOwnership: false },
  })
  const receiverId = useWatch({ control: form.control, name: 'receiverId' })
  const submit = form.handleSubmit((values) =>
    onSubmit({
      itemId,
      receiverId: values.receiverId,
      requesterComment: values.requesterComment,
      secretMessage: values.secretMessage,
      completeOwnership: canGiveComplete && values.completeOwnership,
    }),
  )

  return (
    <Form form={form} onSubmit={submit} noValidate className="flex flex-col gap-4">
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
      {canGiveComplete ? (
        <Checkbox
          label={t('handover.completeOwnership')}
          description={t('handover.completeHint')}
          {...form.register('completeOwnership')}
        />
      ) : null}
      <Button
        type="submit"
        icon={<Send aria-hidden="true" />}
        disabled={!receiverId}
        loading={pending}
        className="self-start"
      >
        {t('handover.create')}
      </Button>
    </Form>
  )
}
