import type { TItem } from '@circles/shared'
import { Package } from 'lucide-react'
import { useId, type ReactNode } from 'react'
import { Button } from '@/components/ui/button'
import { useServerBoundList } from '@/lib/server-render'
import { ItemCard } from './item-card'

/** Item cards in 1, 2 or 3 columns by screen width (spec 001 §9), each with its `actions`, if any. */
export function ItemGrid({ items, actions }: { items: TItem[]; actions?: (item: TItem) => ReactNode }) {
  const shown = useServerBoundList(items)
  return (
    <ul className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3">
      {shown.map((item) => (
        <li key={item.id}>
          <ItemCard item={item} actions={actions?.(item)} />
        </li>
      ))}
    </ul>
  )
}

/** No items yet: what the page is for, and the way to the first one. */
export function EmptyItems({ title, body, children }: { title: string; body: string; children: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-border-strong px-6 py-14 text-center">
      <span className="inline-flex size-12 items-center justify-center rounded-full bg-surface-2 text-fg-subtle">
        <Package aria-hidden="true" className="size-6" />
      </span>
      <h2 className="text-lg font-semibold tracking-tight">{title}</h2>
      <p className="max-w-[50ch] text-sm text-fg-muted">{body}</p>
      <div className="flex flex-wrap justify-center gap-3">{children}</div>
    </div>
  )
}

/** The inline panel the add and edit forms open in, with its title and a way out. */
export function FormPanel({
  title,
  cancelLabel,
  onCancel,
  children,
}: {
  title: string
  cancelLabel: string
  onCancel(): void
  children: ReactNode
}) {
  const titleId = useId()
  return (
    <section
      className="rounded-lg border border-border bg-surface p-5 shadow-sm sm:p-6"
      aria-labelledby={titleId}
    >
      <div className="mb-4 flex items-center justify-between gap-4">
        <h2 id={titleId} className="text-lg font-semibold tracking-tight">
          {title}
        </h2>
        <Button variant="ghost" size="sm" onClick={onCancel}>
          {cancelLabel}
        </Button>
      </div>
      {children}
    </section>
  )
}
