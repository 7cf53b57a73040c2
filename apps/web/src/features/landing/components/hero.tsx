import { ArrowRight, CircleCheck, LockKeyhole, ShieldCheck, Sparkles } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { buttonClasses } from '@/components/ui/button'
import { HandoverPreview } from './handover-preview'

const AUDIENCES = ['families', 'friends', 'flatmates', 'coworking', 'makerspaces', 'teams'] as const

export function Hero() {
  const { t } = useTranslation('landing')
  const trustPoints = [
    { icon: CircleCheck, label: t('trust.confirmed') },
    { icon: ShieldCheck, label: t('trust.ledger') },
    { icon: LockKeyhole, label: t('trust.privacy') },
  ]

  return (
    <section aria-labelledby="hero-heading" className="relative isolate overflow-hidden">
      {/* A faint dot grid that fades out: depth without an image to download. */}
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[radial-gradient(var(--c-border)_1px,transparent_1px)] [mask-image:radial-gradient(ellipse_80%_70%_at_50%_0%,black,transparent)] [background-size:24px_24px]"
      />
      <div className="mx-auto grid w-full max-w-6xl grid-cols-1 items-center gap-14 px-4 pt-10 pb-16 sm:px-6 sm:pt-16 lg:grid-cols-[1.1fr_1fr] lg:gap-16 lg:pt-20 lg:pb-24">
        <div className="flex flex-col items-start gap-6">
          <p className="inline-flex items-center gap-2 rounded-full border border-border bg-surface py-1 ps-1 pe-3 text-sm text-fg-muted shadow-xs">
            <span className="inline-flex items-center gap-1 rounded-full bg-accent-soft px-2 py-0.5 text-xs font-semibold text-accent-text">
              <Sparkles className="size-3.5" aria-hidden="true" />
              {t('hero.badge')}
            </span>
            {t('hero.eyebrow')}
          </p>
          <h1
            id="hero-heading"
            className="text-2xl font-semibold tracking-tight text-balance text-fg sm:text-[2.75rem] sm:leading-[1.1] lg:text-[3.25rem]"
          >
            {t('hero.heading')}
          </h1>
          <p className="max-w-[56ch] text-base text-pretty text-fg-muted sm:text-lg">{t('hero.pitch')}</p>
          <div className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
            <a href="/register" className={buttonClasses({ size: 'lg' })}>
              {t('hero.primaryCta')}
              <ArrowRight aria-hidden="true" className="rtl:rotate-180" />
            </a>
            <a href="#how-it-works" className={buttonClasses({ variant: 'secondary', size: 'lg' })}>
              {t('hero.secondaryCta')}
            </a>
          </div>
          <p className="text-sm text-fg-muted">{t('hero.note')}</p>
          <ul
            aria-label={t('trust.label')}
            className="flex flex-col gap-2 self-stretch border-t border-border pt-6 text-sm text-fg-muted sm:flex-row sm:flex-wrap sm:gap-x-6"
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
      </div>

      <div className="border-y border-border bg-surface">
        <div className="mx-auto flex w-full max-w-6xl flex-col items-center gap-3 px-4 py-6 sm:flex-row sm:justify-center sm:gap-6 sm:px-6">
          <p className="text-xs font-semibold tracking-wide text-fg-subtle uppercase">
            {t('audiences.label')}
          </p>
          <ul className="flex flex-wrap items-center justify-center gap-x-6 gap-y-2 text-sm font-medium text-fg-muted">
            {AUDIENCES.map((key) => (
              <li key={key}>{t(`audiences.items.${key}`)}</li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  )
}
