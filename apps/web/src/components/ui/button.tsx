import type { ComponentProps, ReactNode } from 'react'
import { cn } from '@/lib/class-names'
import { Spinner } from '@/components/ui/spinner'
import { useOfflineReason } from '@/pwa/offline/offline-notice'

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger'
/** `icon` is a square 40 px button; give it an aria-label. */
export type ButtonSize = 'sm' | 'md' | 'lg' | 'icon'

const BASE =
  'inline-flex select-none items-center justify-center gap-2 whitespace-nowrap rounded-md font-medium ' +
  'transition-colors duration-150 ease-out disabled:pointer-events-none disabled:opacity-50 ' +
  '[&_svg]:shrink-0'

const VARIANTS: Record<ButtonVariant, string> = {
  primary: 'bg-accent text-accent-fg shadow-xs hover:bg-accent-hover',
  secondary: 'border border-border bg-surface text-fg shadow-xs hover:bg-surface-2',
  ghost: 'text-fg-muted hover:bg-surface-2 hover:text-fg',
  danger: 'bg-danger text-danger-fg shadow-xs hover:bg-danger-hover',
}

// Heights 32 / 40 / 48 px; on phones (below `sm`) at least 44 px, a comfortable touch target.
const SIZES: Record<ButtonSize, string> = {
  sm: 'h-8 max-sm:h-11 px-3 text-sm [&_svg]:size-4',
  md: 'h-10 max-sm:h-11 px-4 text-sm [&_svg]:size-4',
  lg: 'h-12 px-6 text-base [&_svg]:size-5',
  icon: 'size-10 [&_svg]:size-5',
}

/** The button look for anything clickable, e.g. a router Link that should read as a button. */
export function buttonClasses({
  variant = 'primary',
  size = 'md',
  className,
}: { variant?: ButtonVariant; size?: ButtonSize; className?: string } = {}): string {
  return cn(BASE, VARIANTS[variant], SIZES[size], className)
}

export interface ButtonProps extends ComponentProps<'button'> {
  variant?: ButtonVariant
  size?: ButtonSize
  /** Shows a spinner, keeps the label (so the width does not jump) and blocks further clicks. */
  loading?: boolean
  icon?: ReactNode
  /**
   * The button asks the server to change something: offline it is disabled, with the reason as its
   * title (docs/decisions/0054). By default every button with a `loading` state, which is how the app's
   * actions show their request; false for one that works offline.
   */
  needsServer?: boolean
}

export function Button({
  variant = 'primary',
  size = 'md',
  icon,
  className,
  disabled,
  type = 'button',
  children,
  needsServer,
  loading: loadingProp,
  ...props
}: ButtonProps) {
  const loading = loadingProp ?? false
  const offlineReason = useOfflineReason()
  const blocked = offlineReason !== null && (needsServer ?? loadingProp !== undefined)
  return (
    <button
      type={type}
      className={buttonClasses({ variant, size, className })}
      disabled={disabled || loading || blocked}
      aria-busy={loading || undefined}
      {...props}
      {...(blocked ? { title: offlineReason, 'data-offline-disabled': '' } : {})}
    >
      {loading ? <Spinner size="sm" /> : icon}
      {children}
    </button>
  )
}
