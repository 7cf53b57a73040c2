import { CircleAlert, CircleCheck, Info, TriangleAlert } from 'lucide-react'
import type { ComponentProps, ReactNode } from 'react'
import { cn } from '@/lib/class-names'

export type AlertTone = 'info' | 'success' | 'warning' | 'error'

const TONES: Record<AlertTone, { box: string; icon: string; Icon: typeof Info }> = {
  info: { box: 'border-info/25 bg-info-soft', icon: 'text-info', Icon: Info },
  success: { box: 'border-success/25 bg-success-soft', icon: 'text-success', Icon: CircleCheck },
  warning: { box: 'border-warning/30 bg-warning-soft', icon: 'text-warning', Icon: TriangleAlert },
  error: { box: 'border-danger/25 bg-danger-soft', icon: 'text-danger', Icon: CircleAlert },
}

export interface AlertProps extends Omit<ComponentProps<'div'>, 'title'> {
  tone?: AlertTone
  title?: ReactNode
  /** A link or button under the text, e.g. "Resend verification email". */
  action?: ReactNode
}

/**
 * An inline banner for a status that should stay on screen (toasts go away). Errors are announced
 * (role="alert"), other tones politely (role="status"); pass `role` to change that, e.g. `role={undefined}`
 * for a banner that is part of the page from the start.
 */
export function Alert({ tone = 'info', title, action, className, children, ...props }: AlertProps) {
  const { box, icon, Icon } = TONES[tone]
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn('flex gap-3 rounded-md border px-4 py-3 text-sm text-fg', box, className)}
      {...props}
    >
      <Icon aria-hidden="true" className={cn('mt-0.5 size-4 shrink-0', icon)} />
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        {title ? <p className="font-semibold">{title}</p> : null}
        {children ? <div className="text-fg">{children}</div> : null}
        {action ? <div className="mt-1">{action}</div> : null}
      </div>
    </div>
  )
}
