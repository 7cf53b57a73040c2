import { ArrowRight, CircleCheck, LockKeyhole, ShieldCheck } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { buttonClasses } from '@/components/ui/button'
import { HandoverPreview } from './handover-preview'

export function Hero() {
  const { t } = useTranslation('landing')
  const trustPoints = [
    { icon: CircleCheck, label: t('trust.confirmed') },
    { icon: ShieldCheck, label: t('trust.ledger') },
    { icon: LockKeyhole, label: t('trust.privacy') },
  ]

  return (
    <section className="mx-auto grid w-full max-w-6xl grid-cols-1 items-center gap-12 px-4 pt-10 pb-16 sm:px-6 sm:pt-16 lg:grid-cols-2 lg:gap-16 lg:pt-24 lg:pb-24">
      <div className="flex flex-col items-start gap-6">
        <p className="text-sm font-semibold text-accent-text">{t('hero.eyebrow')}</p>
        <h1 className="text-2xl font-semibold tracking-tight text-balance text-fg">{t('hero.heading')}</h1>
        <p className="max-w-[60ch] text-base text-pretty text-fg-muted sm:text-lg">{t('hero.pitch')}</p>
        <div className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
          <Link to="/register" className={buttonClasses({ size: 'lg' })}>
            {t('hero.primaryCta')}
            <ArrowRight aria-hidden="true" className="rtl:rotate-180" />
          </Link>
          <a href="#how-it-works" className={buttonClasses({ variant: 'secondary', size: 'lg' })}>
            {t('hero.secondaryCta')}
          </a>
        </div>
        <ul
          aria-label={t('trust.label')}
          className="mt-2 flex flex-col gap-2 text-sm text-fg-muted sm:flex-row sm:flex-wrap sm:gap-x-6"
        >
          {trustPoints.map(({ icon: Icon, label }) => (
            <li key={label} className="inline-flex items-center gap-2">
              <Icon className="size-4 text-accent-text" aria-hidden="true" />
              {label}
            </li>
          ))}
        </ul>
      </div>
      <HandoverPreview />
    </section>
  )
}
