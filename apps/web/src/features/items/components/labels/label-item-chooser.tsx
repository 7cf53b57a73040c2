import type { TItem } from '@circles/shared'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Checkbox } from '@/components/ui/checkbox'

/**
 * Which of the circle's items get a label (issue 27): all by default, since a new sheet is usually for
 * everything; a person who labelled most things already unticks them. Folded away until opened.
 */
export function LabelItemChooser({
  items,
  excluded,
  onChange,
}: {
  items: readonly Pick<TItem, 'id' | 'name' | 'code'>[]
  excluded: ReadonlySet<string>
  onChange: (excluded: ReadonlySet<string>) => void
}) {
  const { t } = useTranslation('items')
  const chosen = items.length - items.filter((item) => excluded.has(item.id)).length
  const toggle = (id: string, on: boolean) => {
    const next = new Set(excluded)
    if (on) next.delete(id)
    else next.add(id)
    onChange(next)
  }
  return (
    <details className="group rounded-md border border-border bg-surface">
      <summary className="flex min-h-11 cursor-pointer items-center gap-2 rounded-md px-4 py-2 text-sm font-medium select-none hover:bg-surface-2 sm:min-h-10">
        {t('labels.choose.summary')}
        <span className="font-normal text-fg-muted">
          {chosen === items.length
            ? t('labels.choose.all', { count: items.length })
            : t('labels.choose.some', { chosen, count: items.length })}
        </span>
      </summary>
      <div className="flex flex-col gap-3 border-t border-border px-4 py-3">
        <div className="flex flex-wrap gap-2">
          <Button size="sm" variant="secondary" onClick={() => onChange(new Set())}>
            {t('labels.choose.selectAll')}
          </Button>
          <Button
            size="sm"
            variant="secondary"
            onClick={() => onChange(new Set(items.map((item) => item.id)))}
          >
            {t('labels.choose.selectNone')}
          </Button>
        </div>
        <fieldset className="grid gap-x-6 gap-y-2 sm:grid-cols-2 lg:grid-cols-3">
          <legend className="sr-only">{t('labels.choose.summary')}</legend>
          {items.map((item) => (
            <Checkbox
              key={item.id}
              checked={!excluded.has(item.id)}
              onChange={(event) => toggle(item.id, event.target.checked)}
              label={item.name}
              description={<span className="font-mono">{item.code}</span>}
            />
          ))}
        </fieldset>
      </div>
    </details>
  )
}
