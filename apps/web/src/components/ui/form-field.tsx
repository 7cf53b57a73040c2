import { CircleAlert } from 'lucide-react'
import { useId, type ReactNode } from 'react'
import { Label } from '@/components/ui/input'
import { cn } from '@/lib/class-names'

/** What a FormField hands its control: spread it onto the input. */
export interface FieldControlProps {
  id: string
  'aria-describedby'?: string
  'aria-invalid'?: true
}

export interface FormFieldProps {
  label: ReactNode
  /** Help under the control (e.g. "At least 8 characters"); announced with it. */
  hint?: ReactNode
  /** The field's error; marks the control invalid and is announced with it. */
  error?: ReactNode
  /** Something beside the label, e.g. a "Forgot password?" link. */
  labelAside?: ReactNode
  id?: string
  className?: string
  children: (control: FieldControlProps) => ReactNode
}

/**
 * Label, control, hint and error wired together: the label names the control, hint and error describe
 * it (aria-describedby), an error marks it aria-invalid.
 *
 * ```tsx
 * <FormField label="Email" error={errors.email?.message}>
 *   {(field) => <Input type="email" {...field} {...register('email')} />}
 * </FormField>
 * ```
 */
export function FormField({ label, hint, error, labelAside, id, className, children }: FormFieldProps) {
  const generatedId = useId()
  const controlId = id ?? generatedId
  const hintId = hint ? `${controlId}-hint` : undefined
  const errorId = error ? `${controlId}-error` : undefined
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined

  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <div className="flex items-baseline justify-between gap-3">
        <Label htmlFor={controlId}>{label}</Label>
        {labelAside}
      </div>
      {children({
        id: controlId,
        ...(describedBy && { 'aria-describedby': describedBy }),
        ...(error ? { 'aria-invalid': true as const } : {}),
      })}
      {error ? (
        <p id={errorId} className="flex items-start gap-1.5 text-sm text-danger">
          <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>{error}</span>
        </p>
      ) : null}
      {hint ? (
        <p id={hintId} className="text-sm text-fg-muted">
          {hint}
        </p>
      ) : null}
    </div>
  )
}
