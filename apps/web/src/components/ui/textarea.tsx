import type { ComponentProps } from 'react'
import { cn } from '@/lib/class-names'

export interface TextareaProps extends ComponentProps<'textarea'> {
  invalid?: boolean
}

/** A multi-line text box with the same border, focus and error look as `Input`. */
export function Textarea({ invalid = false, className, rows = 5, ...props }: TextareaProps) {
  return (
    <textarea
      rows={rows}
      aria-invalid={invalid || undefined}
      className={cn(
        'block w-full resize-y rounded-md border border-border-strong bg-surface px-3 py-2 text-base text-fg shadow-xs',
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
