import { useId, type ComponentProps, type ReactNode } from 'react'
import { cn } from '@/lib/class-names'

export function Label({ className, ...props }: ComponentProps<'label'>) {
  return <label className={cn('text-sm font-medium text-fg', className)} {...props} />
}

export interface InputProps extends ComponentProps<'input'> {
  invalid?: boolean
}

export function Input({ invalid = false, className, ...props }: InputProps) {
  return (
    <input
      aria-invalid={invalid || undefined}
      className={cn(
        'block h-10 w-full rounded-md border border-border-strong bg-surface px-3 text-base text-fg shadow-xs',
        'transition-colors duration-150 placeholder:text-fg-subtle sm:text-sm',
        'focus-visible:border-accent focus-visible:outline-2 focus-visible:outline-offset-0',
        'disabled:cursor-not-allowed disabled:bg-surface-2 disabled:opacity-70 read-only:bg-surface-2',
        'aria-invalid:border-danger aria-invalid:focus-visible:outline-danger',
        className,
      )}
      {...props}
    />
  )
}

/** A field's error text; give its id to the input's aria-describedby. */
export function FieldError({ className, children, ...props }: ComponentProps<'p'>) {
  if (!children) return null
  return (
    <p className={cn('text-sm text-danger', className)} {...props}>
      {children}
    </p>
  )
}

export interface TextFieldProps extends Omit<InputProps, 'invalid'> {
  label: ReactNode
  /** Shown below the label; announced with the input. */
  hint?: ReactNode
  error?: ReactNode
}

/** Label, input, hint and error wired together (ids, aria-describedby, aria-invalid). */
export function TextField({ label, hint, error, id, className, ...props }: TextFieldProps) {
  const generatedId = useId()
  const inputId = id ?? generatedId
  const hintId = hint ? `${inputId}-hint` : undefined
  const errorId = error ? `${inputId}-error` : undefined
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined

  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <Label htmlFor={inputId}>{label}</Label>
      {hint ? (
        <p id={hintId} className="text-sm text-fg-muted">
          {hint}
        </p>
      ) : null}
      <Input id={inputId} invalid={Boolean(error)} aria-describedby={describedBy} {...props} />
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  )
}
