import { useId, type ReactNode } from 'react'

export interface FieldControlProps {
  id: string
  'aria-describedby': string | undefined
  'aria-required': true
  invalid: boolean
}

interface ContactFieldProps {
  label: string
  hint?: string
  error?: string
  /** Renders the control with the ids and aria attributes that tie it to the label, hint and error. */
  children: (control: FieldControlProps) => ReactNode
}

/** Label, control, hint and inline error, wired together for assistive technology. */
export function ContactField({ label, hint, error, children }: ContactFieldProps) {
  const id = useId()
  const hintId = hint && !error ? `${id}-hint` : undefined
  const errorId = error ? `${id}-error` : undefined
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined

  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-fg">
        {label}
      </label>
      {children({ id, 'aria-describedby': describedBy, 'aria-required': true, invalid: Boolean(error) })}
      {hintId ? (
        <p id={hintId} className="text-sm text-fg-muted">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </div>
  )
}
