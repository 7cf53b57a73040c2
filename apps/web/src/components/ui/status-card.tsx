import { useEffect, useRef, type ComponentProps, type ReactNode } from 'react'
import { cn } from '@/lib/class-names'

export type StatusCardTone = 'accent' | 'success' | 'info' | 'warning' | 'danger'

const ICON_TONES: Record<StatusCardTone, string> = {
  accent: 'bg-accent-soft text-accent-text',
  success: 'bg-success-soft text-success',
  info: 'bg-info-soft text-info',
  warning: 'bg-warning-soft text-warning',
  danger: 'bg-danger-soft text-danger',
}

export interface StatusCardProps extends Omit<ComponentProps<'div'>, 'title'> {
  /** The page's one h1. */
  title: ReactNode
  intro?: ReactNode
  /** A status icon above the title (email sent, success, broken link). */
  icon?: ReactNode
  iconTone?: StatusCardTone
  /**
   * When this value changes, focus moves to the title, so keyboard and screen-reader users start
   * reading the new state (e.g. "Check Your Email" after sending) instead of a vanished button.
   */
  focusKey?: string
}

/** One centred card with an optional status icon, the page's title, an intro and the content. */
export function StatusCard({
  title,
  intro,
  icon,
  iconTone = 'accent',
  focusKey,
  className,
  children,
  ...props
}: StatusCardProps) {
  const headingRef = useRef<HTMLHeadingElement>(null)
  const previousFocusKey = useRef(focusKey)
  useEffect(() => {
    if (previousFocusKey.current === focusKey) return
    previousFocusKey.current = focusKey
    headingRef.current?.focus()
  }, [focusKey])

  return (
    <div
      className={cn(
        'rounded-lg border border-border bg-surface px-5 py-7 shadow-md sm:px-8 sm:py-9',
        className,
      )}
      {...props}
    >
      {icon ? (
        <span
          className={cn(
            'mb-5 inline-flex size-12 items-center justify-center rounded-full [&_svg]:size-6',
            ICON_TONES[iconTone],
          )}
        >
          {icon}
        </span>
      ) : null}
      <h1
        ref={headingRef}
        tabIndex={-1}
        className="text-xl font-semibold tracking-tight text-balance break-words text-fg outline-none"
      >
        {title}
      </h1>
      {intro ? <div className="mt-2 text-sm text-pretty text-fg-muted">{intro}</div> : null}
      {children ? <div className="mt-7">{children}</div> : null}
    </div>
  )
}
