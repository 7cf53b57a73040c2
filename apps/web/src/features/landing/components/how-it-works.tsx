import { Handshake, Package, Users } from 'lucide-react'
import { useTranslation } from 'react-i18next'

const STEPS = [
  { key: 'circle', icon: Users },
  { key: 'items', icon: Package },
  { key: 'handover', icon: Handshake },
] as const

/** The #how-it-works anchor of spec 000 §2. */
export function HowItWorks() {
  const { t } = useTranslation('landing')

  return (
    <section
      id="how-it-works"
      aria-labelledby="how-it-works-heading"
      className="scroll-mt-8 border-t border-border bg-surface"
    >
      <div className="mx-auto w-full max-w-6xl px-4 py-16 sm:px-6 lg:py-24">
        <div className="max-w-[60ch]">
          <h2 id="how-it-works-heading" className="text-xl font-semibold tracking-tight sm:text-2xl">
            {t('howItWorks.heading')}
          </h2>
          <p className="mt-2 text-fg-muted">{t('howItWorks.intro')}</p>
        </div>
        <ol className="mt-10 grid gap-4 sm:gap-6 md:grid-cols-3">
          {STEPS.map(({ key, icon: Icon }, index) => (
            <li key={key} className="flex flex-col gap-4 rounded-lg border border-border bg-bg p-6">
              <div className="flex items-center justify-between">
                <span className="inline-flex size-10 items-center justify-center rounded-md bg-accent-soft text-accent-text">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <span className="text-xs font-medium text-fg-subtle">
                  {t('howItWorks.stepLabel', { number: index + 1 })}
                </span>
              </div>
              <div className="flex flex-col gap-1">
                <h3 className="font-semibold text-fg">{t(`howItWorks.steps.${key}.title`)}</h3>
                <p className="text-sm text-fg-muted">{t(`howItWorks.steps.${key}.body`)}</p>
              </div>
            </li>
          ))}
        </ol>
      </div>
    </section>
  )
}
