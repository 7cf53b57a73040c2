import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef } from 'react'
import { cn } from '@/lib/class-names'

export interface TabItem<K extends string> {
  key: K
  label: ReactNode
  panel: ReactNode
}

/**
 * Tabs after the WAI-ARIA pattern: a tablist of buttons, arrow keys (and Home/End) move between them,
 * only the selected tab is in the tab order, and each panel is labelled by its tab.
 */
export function Tabs<K extends string>({
  label,
  items,
  selected,
  onSelect,
}: {
  label: string
  items: TabItem<K>[]
  selected: K
  onSelect(key: K): void
}) {
  const id = useId()
  const refs = useRef(new Map<K, HTMLButtonElement>())
  const index = Math.max(
    0,
    items.findIndex((item) => item.key === selected),
  )

  // On a narrow screen the tab list scrolls sideways: a tab chosen half out of view comes into it.
  // Not on the first render, which must not move the page.
  const shown = useRef(selected)
  useEffect(() => {
    if (shown.current === selected) return
    shown.current = selected
    refs.current.get(selected)?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' })
  }, [selected])

  const onKeyDown = (event: KeyboardEvent) => {
    const rtl = getComputedStyle(event.currentTarget).direction === 'rtl'
    const step = { ArrowRight: rtl ? -1 : 1, ArrowLeft: rtl ? 1 : -1 } as Record<string, number>
    let next: number | undefined
    if (event.key in step) next = (index + step[event.key]! + items.length) % items.length
    if (event.key === 'Home') next = 0
    if (event.key === 'End') next = items.length - 1
    if (next === undefined) return
    event.preventDefault()
    const key = items[next]!.key
    onSelect(key)
    refs.current.get(key)?.focus()
  }

  return (
    <div className="flex flex-col gap-6">
      <div
        role="tablist"
        aria-label={label}
        onKeyDown={onKeyDown}
        className="flex gap-1 overflow-x-auto border-b border-border"
      >
        {items.map((item) => {
          const active = item.key === selected
          return (
            <button
              key={item.key}
              ref={(node) => {
                if (node) refs.current.set(item.key, node)
                else refs.current.delete(item.key)
              }}
              type="button"
              role="tab"
              id={`${id}-tab-${item.key}`}
              aria-selected={active}
              aria-controls={`${id}-panel-${item.key}`}
              tabIndex={active ? 0 : -1}
              onClick={() => onSelect(item.key)}
              className={cn(
                '-mb-px shrink-0 border-b-2 px-3 py-2.5 text-sm font-medium whitespace-nowrap transition-colors duration-150',
                active
                  ? 'border-accent text-accent-text'
                  : 'border-transparent text-fg-muted hover:border-border-strong hover:text-fg',
              )}
            >
              {item.label}
            </button>
          )
        })}
      </div>
      {items.map((item) => (
        <div
          key={item.key}
          role="tabpanel"
          id={`${id}-panel-${item.key}`}
          aria-labelledby={`${id}-tab-${item.key}`}
          hidden={item.key !== selected}
          tabIndex={0}
          className="focus-visible:outline-none"
        >
          {item.key === selected ? item.panel : null}
        </div>
      ))}
    </div>
  )
}
