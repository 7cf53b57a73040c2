import { useId, type ComponentProps, type ReactNode } from 'react'
import { cn } from '@/lib/class-names'

export interface CheckboxProps extends Omit<ComponentProps<'input'>, 'type'> {
  label: ReactNode
  /** A quieter line under the label; announced with the checkbox. */
  description?: ReactNode
}

/** A native checkbox in the accent colour; the whole label is the click target. */
export function Checkbox({ label, description, id, className, ...props }: CheckboxProps) {
  const generatedId = useId()
  const inputId = id ?? generatedId
  const descriptionId = description ? `${inputId}-description` : undefined

  return (
    <div className={cn('flex items-start gap-3', className)}>
      <input
        id={inputId}
        type="checkbox"
        aria-describedby={descriptionId}
        className={cn(
          'mt-0.5 size-4 shrink-0 cursor-pointer rounded-sm border-border-strong accent-accent',
          'disabled:cursor-not-allowed disabled:opacity-50',
        )}
        {...props}
      />
      <div className="flex flex-col gap-0.5">
        <label htmlFor={inputId} className="cursor-pointer text-sm font-medium text-fg select-none">
          {label}
        </label>
        {description ? (
          <p id={descriptionId} className="text-sm text-fg-muted">
            {description}
          </p>
        ) : null}
      </div>
    </div>
  )
}
