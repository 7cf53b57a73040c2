import { LANGUAGES, type Language } from '@circles/shared'
import { cn } from '@/lib/class-names'
import { useHydrated } from '@/lib/use-hydrated'
import type { ChromeLabels } from './chrome-labels'

interface LanguageButtonsProps {
  current: string
  labels: Pick<ChromeLabels, 'language' | 'languages'>
  /** Omit on the static landing page: its script handles `data-set-language` clicks. */
  onSelect?: (language: Language) => void
  className?: string
}

/**
 * EN / DE segmented control for the public pages. Where the app handles the switch (`onSelect`), the
 * prerendered buttons stay disabled until it has hydrated the page, or on a static page until its script
 * runs (features/landing/enhance.ts): a press before would do nothing. They look as they will meanwhile,
 * with a waiting cursor, as the forms' submit buttons do.
 */
export function LanguageButtons({ current, labels, onSelect, className }: LanguageButtonsProps) {
  const waiting = !useHydrated() && onSelect !== undefined
  return (
    <div
      role="group"
      aria-label={labels.language}
      className={cn('inline-flex rounded-md border border-border bg-surface p-0.5 shadow-xs', className)}
    >
      {LANGUAGES.map((language) => {
        const active = current === language
        return (
          <button
            key={language}
            type="button"
            lang={language}
            title={labels.languages[language]}
            aria-pressed={active}
            data-set-language={language}
            onClick={onSelect ? () => onSelect(language) : undefined}
            disabled={waiting}
            className={cn(
              waiting && 'cursor-progress',
              'h-8 min-w-10 rounded-sm px-2 text-xs font-semibold tracking-wide uppercase transition-colors duration-150',
              active ? 'bg-accent-soft text-accent-text' : 'text-fg-muted hover:bg-surface-2 hover:text-fg',
            )}
          >
            {language}
          </button>
        )
      })}
    </div>
  )
}
