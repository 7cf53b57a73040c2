import type { ComponentProps } from 'react'
import { cn } from '@/lib/class-names'

interface LogoMarkProps extends Omit<ComponentProps<'svg'>, 'children'> {
  /** Accessible name; without it the mark is decorative (the wordmark beside it already says "Circles"). */
  title?: string
}

/** The mark: two overlapping circles, the people on either side of a handover. */
export function LogoMark({ title, className, ...props }: LogoMarkProps) {
  return (
    <svg
      viewBox="0 0 32 32"
      fill="none"
      role={title ? 'img' : undefined}
      aria-hidden={title ? undefined : true}
      focusable="false"
      className={cn('size-8 text-accent', className)}
      {...props}
    >
      {title ? <title>{title}</title> : null}
      <circle cx="12" cy="16" r="8.5" stroke="currentColor" strokeWidth="3" />
      <circle cx="20" cy="16" r="8.5" stroke="currentColor" strokeWidth="3" strokeOpacity="0.55" />
    </svg>
  )
}

interface LogoProps {
  className?: string
  /** Only the mark, e.g. in a tight header; it then carries the accessible name. */
  markOnly?: boolean
}

/** Mark plus the "Circles" wordmark (a name, never translated). */
export function Logo({ className, markOnly = false }: LogoProps) {
  return (
    <span className={cn('inline-flex items-center gap-2', className)}>
      <LogoMark className="size-7" title={markOnly ? 'Circles' : undefined} />
      {markOnly ? null : <span className="text-lg font-semibold tracking-tight text-fg">Circles</span>}
    </span>
  )
}
