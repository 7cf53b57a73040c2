import { Check, FileQuestion, type LucideIcon, PackageSearch, Users } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { SECTION_INNER, SectionHeading } from './section-heading'

const PROBLEMS: ReadonlyArray<{ key: 'lost' | 'trust' | 'documentation'; icon: LucideIcon }> = [
  { key: 'lost', icon: PackageSearch },
  { key: 'trust', icon: Users },
  { key: 'documentation', icon: FileQuestion },
]

/** The three problems Circles solves (spec 000 §1): lost items, trust, missing documentation. */
export function Problems() {
  const { t } = useTranslation('landing')

  return (
    <section id="why" aria-labelledby="why-heading" className="scroll-mt-16">
      <div className={SECTION_INNER}>
        <SectionHeading
          id="why-heading"
          eyebrow={t('problems.eyebrow')}
          title={t('problems.heading')}
          intro={t('problems.intro')}
        />
        <ul className="mt-12 grid gap-4 sm:gap-6 md:grid-cols-3">
          {PROBLEMS.map(({ key, icon: Icon }) => (
            <li key={key} className="flex flex-col rounded-lg border border-border bg-surface p-6 shadow-xs">
              <span className="inline-flex size-10 items-center justify-center rounded-md bg-surface-2 text-fg-muted">
                <Icon className="size-5" aria-hidden="true" />
              </span>
              <h3 className="mt-5 font-semibold text-fg">{t(`problems.items.${key}.title`)}</h3>
              <p className="mt-2 flex-1 text-sm text-fg-muted">{t(`problems.items.${key}.body`)}</p>
              <p className="mt-6 flex items-start gap-2 border-t border-border pt-4 text-sm font-medium text-fg">
                <Check className="mt-0.5 size-4 shrink-0 text-success" aria-hidden="true" />
                <span>
                  <span className="sr-only">{t('problems.solutionLabel')}: </span>
                  {t(`problems.items.${key}.solution`)}
                </span>
              </p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  )
}
