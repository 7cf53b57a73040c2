import { PLANS } from '@circles/shared'
import { ArrowRight, Check } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { buttonClasses } from '@/components/ui/button'
import { cn } from '@/lib/class-names'
import { SECTION_INNER, SectionHeading } from './section-heading'

interface PlanProps {
  id: string
  name: string
  description: string
  price: string
  priceNote: string
  features: string[]
  includesLabel: string
  cta: { href: string; label: string }
  highlighted?: boolean
}

function Plan({
  id,
  name,
  description,
  price,
  priceNote,
  features,
  includesLabel,
  cta,
  highlighted,
}: PlanProps) {
  return (
    <article
      aria-labelledby={id}
      className={cn(
        'flex flex-col rounded-xl border bg-surface p-6 shadow-sm sm:p-8',
        highlighted ? 'border-accent/50 ring-1 ring-accent/30' : 'border-border',
      )}
    >
      <h3 id={id} className="text-lg font-semibold text-fg">
        {name}
      </h3>
      <p className="mt-1 text-sm text-fg-muted sm:min-h-10">{description}</p>
      <p className="mt-6 text-2xl font-semibold tracking-tight text-fg">{price}</p>
      <p className="mt-1 text-sm text-fg-muted">{priceNote}</p>
      <a
        href={cta.href}
        className={buttonClasses({
          variant: highlighted ? 'primary' : 'secondary',
          size: 'lg',
          className: 'mt-6 w-full',
        })}
      >
        {cta.label}
        <ArrowRight aria-hidden="true" className="rtl:rotate-180" />
      </a>
      <p className="mt-8 text-xs font-semibold tracking-wide text-fg-subtle uppercase">{includesLabel}</p>
      <ul className="mt-4 flex flex-col gap-3">
        {features.map((feature) => (
          <li key={feature} className="flex items-start gap-3 text-sm text-fg">
            <Check className="mt-0.5 size-4 shrink-0 text-accent-text" aria-hidden="true" />
            {feature}
          </li>
        ))}
      </ul>
    </article>
  )
}

const ENTERPRISE_FEATURES = [
  'circles',
  'members',
  'items',
  'support',
  'security',
  'integrations',
  'manager',
] as const

/** The #pricing anchor: exactly the two plans of spec 000 §1. */
export function Pricing() {
  const { t } = useTranslation('landing')
  const personal = PLANS.personal

  return (
    <section
      id="pricing"
      aria-labelledby="pricing-heading"
      className="scroll-mt-16 border-y border-border bg-surface-2"
    >
      <div className={SECTION_INNER}>
        <SectionHeading
          id="pricing-heading"
          eyebrow={t('pricing.eyebrow')}
          title={t('pricing.heading')}
          intro={t('pricing.intro')}
          align="center"
        />
        <div className="mx-auto mt-12 grid max-w-4xl gap-6 md:grid-cols-2">
          <Plan
            id="plan-personal"
            highlighted
            name={t('pricing.personal.name')}
            description={t('pricing.personal.description')}
            price={t('pricing.personal.price')}
            priceNote={t('pricing.personal.priceNote')}
            includesLabel={t('pricing.includes')}
            cta={{ href: '/register', label: t('pricing.personal.cta') }}
            features={[
              t('pricing.personal.features.circles', { value: personal.circles }),
              t('pricing.personal.features.members', { value: personal.membersPerCircle }),
              t('pricing.personal.features.items', { value: personal.items }),
              t('pricing.personal.features.records'),
              t('pricing.personal.features.support'),
              t('pricing.personal.features.security'),
            ]}
          />
          <Plan
            id="plan-enterprise"
            name={t('pricing.enterprise.name')}
            description={t('pricing.enterprise.description')}
            price={t('pricing.enterprise.price')}
            priceNote={t('pricing.enterprise.priceNote')}
            includesLabel={t('pricing.includes')}
            cta={{ href: '/contact', label: t('pricing.enterprise.cta') }}
            features={ENTERPRISE_FEATURES.map((key) => t(`pricing.enterprise.features.${key}`))}
          />
        </div>
      </div>
    </section>
  )
}
