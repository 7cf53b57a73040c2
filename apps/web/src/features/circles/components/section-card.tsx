import type { ReactNode } from 'react'
import { CardTitle } from '@/components/ui/card'
import { cn } from '@/lib/class-names'

interface SectionCardProps {
  /** Used for the heading's id, which names the section. */
  id: string
  title: ReactNode
  /** Beside the title, e.g. an "Add item" link. */
  action?: ReactNode
  children: ReactNode
  className?: string
}

/** A card with a titled header row; the rows inside run edge to edge. */
export function SectionCard({ id, title, action, children, className }: SectionCardProps) {
  return (
    <section
      aria-labelledby={`${id}-title`}
      className={cn('overflow-hidden rounded-lg border border-border bg-surface shadow-sm', className)}
    >
      <div className="flex min-h-16 flex-wrap items-center justify-between gap-3 border-b border-border px-5 py-3">
        <CardTitle id={`${id}-title`}>{title}</CardTitle>
        {action}
      </div>
      {children}
    </section>
  )
}
