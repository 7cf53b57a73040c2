import { useTranslation } from 'react-i18next'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { dateInDays } from '@/lib/lending/dates'

export interface DueValue {
  date: string
  time: string
}

/**
 * A return date and time (issue 26): a date input and a time input, side by side from 390 px on. The
 * time defaults to the end of the day; any future minute is allowed.
 */
export function DueFields({
  value,
  onChange,
  dateLabel,
  error,
  disabled,
}: {
  value: DueValue
  onChange: (value: DueValue) => void
  dateLabel?: string
  error?: string | undefined
  disabled?: boolean
}) {
  const { t } = useTranslation('loans')
  return (
    <div className="grid grid-cols-[3fr_2fr] gap-3">
      <FormField label={dateLabel ?? t('due.date')} error={error}>
        {(field) => (
          <Input
            {...field}
            type="date"
            required
            min={dateInDays(0)}
            disabled={disabled}
            value={value.date}
            onChange={(event) => onChange({ ...value, date: event.target.value })}
          />
        )}
      </FormField>
      <FormField label={t('due.time')}>
        {(field) => (
          <Input
            {...field}
            type="time"
            disabled={disabled}
            value={value.time}
            onChange={(event) => onChange({ ...value, time: event.target.value })}
          />
        )}
      </FormField>
    </div>
  )
}
