import type { TCircleForm } from '@circles/shared'
import type { FieldErrors, UseFormRegister } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Textarea } from '@/components/ui/textarea'
import { fieldErrorText } from '../lib/form-errors'

interface CircleFormFieldsProps {
  register: UseFormRegister<TCircleForm>
  errors: FieldErrors<TCircleForm>
  /** Ids stay unique when the page shows two forms' worth of fields over time. */
  idPrefix: string
  disabled?: boolean
}

/** Name (required, min 3) and description (optional): the create form and the inline edit share them. */
export function CircleFormFields({ register, errors, idPrefix, disabled }: CircleFormFieldsProps) {
  const { t } = useTranslation('circles')
  return (
    <>
      <FormField
        id={`${idPrefix}-name`}
        label={t('form.name')}
        hint={t('form.nameHint')}
        error={fieldErrorText(errors.name?.message)}
      >
        {(field) => (
          <Input
            {...field}
            autoComplete="off"
            placeholder={t('form.namePlaceholder')}
            disabled={disabled}
            {...register('name')}
          />
        )}
      </FormField>
      <FormField
        id={`${idPrefix}-description`}
        label={
          <>
            {t('form.description')} <span className="font-normal text-fg-muted">({t('form.optional')})</span>
          </>
        }
        error={fieldErrorText(errors.description?.message)}
      >
        {(field) => (
          <Textarea
            {...field}
            rows={4}
            placeholder={t('form.descriptionPlaceholder')}
            disabled={disabled}
            {...register('description')}
          />
        )}
      </FormField>
    </>
  )
}
