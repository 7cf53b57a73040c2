import { useTranslation } from 'react-i18next'
import { cn } from '@/lib/class-names'
import { LANGUAGES, setLanguage, type Language } from '@/lib/i18n'
import { useHydrated } from '@/lib/use-hydrated'

/**
 * EN / DE segmented control; the choice is stored and wins over the browser's language next time. On a
 * prerendered page it stays disabled until the app has hydrated it (a press before would do nothing),
 * looking as it will, with a waiting cursor, as the forms' submit buttons do.
 */
export function LanguageSwitch({ className }: { className?: string }) {
  const { t, i18n } = useTranslation()
  const current = i18n.resolvedLanguage ?? i18n.language
  const waiting = !useHydrated()

  return (
    <div
      role="group"
      aria-label={t('language.label')}
      className={cn('inline-flex rounded-md border border-border bg-surface p-0.5 shadow-xs', className)}
    >
      {LANGUAGES.map((language: Language) => {
        const active = current === language
        return (
          <button
            key={language}
            type="button"
            lang={language}
            title={t(`language.${language}`)}
            aria-pressed={active}
            onClick={() => void setLanguage(language)}
            disabled={waiting}
            className={cn(
              waiting && 'cursor-progress',
              'h-8 min-w-10 rounded-sm px-2 text-xs font-semibold uppercase tracking-wide transition-colors duration-150',
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
