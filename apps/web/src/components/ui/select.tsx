import { ChevronDown } from 'lucide-react'
import type { ComponentProps } from 'react'
import { cn } from '@/lib/class-names'

export interface SelectProps extends ComponentProps<'select'> {
  invalid?: boolean
}

/**
 * A native select in the design system's look. Native on purpose: the platform's picker is the most
 * usable one on phones, works with every screen reader and needs no script.
 */
export function Select({ invalid = false, className, children, ...props }: SelectProps) {
  return (
    <div className={cn('relative', className)}>
      <select
        aria-invalid={invalid || undefined}
        className={cn(
          'block h-10 w-full appearance-none rounded-md border border-border-strong bg-surface ps-3 pe-10 text-base text-fg shadow-xs',
          'transition-colors duration-150 sm:text-sm',
          'focus-visible:border-accent focus-visible:outline-2 focus-visible:outline-offset-0',
          'disabled:cursor-not-allowed disabled:bg-surface-2 disabled:opacity-70',
          'aria-invalid:border-danger aria-invalid:focus-visible:outline-danger',
        )}
        {...props}
      >
        {children}
      </select>
      <ChevronDown
        aria-hidden="true"
        className="pointer-events-none absolute end-3 top-1/2 size-4 -translate-y-1/2 text-fg-muted"
      />
    </div>
  )
}
