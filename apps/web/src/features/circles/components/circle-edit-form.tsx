import { zodResolver } from '@hookform/resolvers/zod'
import {
  MESSAGES,
  ZCircleForm,
  type TCircleDetail,
  type TCircleForm,
  type TCircleInput,
} from '@circles/shared'
import { useEffect, useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Form } from '@/components/ui/form'
import { notify } from '@/lib/notify'
import { translateServerError } from '@/lib/server-errors'
import { useUpdateCircle } from '../api/update-circle'
import { actionErrorText } from '../lib/errors'
import { dismissValidationToast, toastFirstError } from '../lib/form-errors'
import { CircleFormFields } from './circle-form-fields'

const resolver = zodResolver(ZCircleForm)

interface CircleEditFormProps {
  circle: TCircleDetail
  /** Leaves edit mode, after a save or a cancel. */
  onDone(): void
}

/** The admin's inline edit of name and description (spec 001 §2, §4 "Circle edit"). */
export function CircleEditForm({ circle, onDone }: CircleEditFormProps) {
  const { t } = useTranslation('circles')
  const updating = useUpdateCircle(circle.id)
  const [failure, setFailure] = useState<string | null>(null)
  const form = useForm<TCircleForm, unknown, TCircleInput>({
    resolver,
    defaultValues: { name: circle.name, description: circle.description ?? '' },
  })
  const { errors } = form.formState
  const { setFocus } = form

  useEffect(() => setFocus('name'), [setFocus])

  const cancel = () => {
    if (updating.isPending) return
    dismissValidationToast()
    onDone()
  }

  const onSubmit = form.handleSubmit(
    (values) => {
      dismissValidationToast()
      setFailure(null)
      updating.mutate(values, {
        onSuccess: (answer) => {
          notify.success(translateServerError(answer.message ?? MESSAGES.circleUpdated))
          onDone()
        },
        onError: (error) => setFailure(actionErrorText(error)),
      })
    },
    (fieldErrors) => toastFirstError(fieldErrors),
  )

  return (
    <Form
      form={form}
      onSubmit={onSubmit}
      onKeyDown={(event) => {
        if (event.key === 'Escape') cancel()
      }}
      aria-labelledby="circle-edit-title"
      className="flex flex-col gap-5 rounded-lg border border-border bg-surface p-5 shadow-sm sm:p-6"
    >
      <h1 id="circle-edit-title" className="text-lg font-semibold tracking-tight">
        {t('detail.editTitle')}
      </h1>
      <CircleFormFields
        register={form.register}
        errors={errors}
        idPrefix="edit-circle"
        disabled={updating.isPending}
      />
      {failure ? <Alert tone="error">{failure}</Alert> : null}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={cancel} disabled={updating.isPending}>
          {t('detail.cancel')}
        </Button>
        <Button type="submit" loading={updating.isPending}>
          {t('detail.save')}
        </Button>
      </div>
    </Form>
  )
}
