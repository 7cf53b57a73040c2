import { PLANS } from '@circles/shared'
import { ChevronDown } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { SECTION_INNER, SectionHeading } from './section-heading'

/** Exactly LIMITS.faqEntries questions (spec 000 §9); a unit test holds them to it. */
export const FAQ_KEYS = ['free', 'blockchain', 'privacy', 'phone'] as const

/**
 * The #faq anchor. Native <details>/<summary>: opens and closes with keyboard and screen readers and
 * without any script, which the static landing page relies on.
 */
export function Faq() {
  const { t } = useTranslation('landing')
  const personal = PLANS.personal

  return (
    <section id="faq" aria-labelledby="faq-heading" className="scroll-mt-16">
      <div className={`${SECTION_INNER} grid gap-10 lg:grid-cols-[1fr_1.6fr] lg:gap-16`}>
        <SectionHeading
          id="faq-heading"
          eyebrow={t('faq.eyebrow')}
          title={t('faq.heading')}
          intro={
            <>
              {t('faq.intro')}{' '}
              <a
                href="/contact"
                className="font-medium text-accent-text underline decoration-accent/40 underline-offset-4 hover:decoration-accent"
              >
                {t('faq.contactLink')}
              </a>
            </>
          }
        />
        <div className="flex flex-col gap-3">
          {FAQ_KEYS.map((key) => (
            <details
              key={key}
              className="group rounded-lg border border-border bg-surface shadow-xs transition-colors duration-150 open:shadow-sm"
            >
              <summary className="flex min-h-14 cursor-pointer list-none items-center justify-between gap-4 rounded-lg px-5 py-4 font-medium text-fg hover:bg-surface-2 group-open:rounded-b-none [&::-webkit-details-marker]:hidden">
                {t(`faq.items.${key}.question`)}
                <ChevronDown
                  aria-hidden="true"
                  className="size-5 shrink-0 text-fg-muted transition-transform duration-200 group-open:rotate-180"
                />
              </summary>
              <p className="px-5 pt-1 pb-5 text-fg-muted">
                {t(`faq.items.${key}.answer`, {
                  circles: personal.circles,
                  members: personal.membersPerCircle,
                  items: personal.items,
                })}
              </p>
            </details>
          ))}
        </div>
      </div>
    </section>
  )
}
