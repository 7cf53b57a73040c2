import { ArrowRight } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { buttonClasses } from '@/components/ui/button'
import { LogoMark } from '@/components/ui/logo'

/** The last nudge before the footer. */
export function ClosingCta() {
  const { t } = useTranslation('landing')

  return (
    <section aria-labelledby="closing-heading" className="px-4 pb-16 sm:px-6 sm:pb-20 lg:pb-24">
      <div className="relative isolate mx-auto flex w-full max-w-6xl flex-col items-center gap-6 overflow-hidden rounded-xl border border-border bg-surface px-6 py-14 text-center shadow-sm sm:py-16">
        <div
          aria-hidden="true"
          className="absolute inset-x-0 -top-24 -z-10 mx-auto h-48 w-2/3 rounded-full bg-accent-soft blur-3xl"
        />
        <LogoMark className="size-10" />
        <h2 id="closing-heading" className="text-xl font-semibold tracking-tight text-balance sm:text-2xl">
          {t('closing.heading')}
        </h2>
        <p className="max-w-[52ch] text-base text-pretty text-fg-muted">{t('closing.body')}</p>
        <div className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
          <a href="/register" className={buttonClasses({ size: 'lg' })}>
            {t('closing.primaryCta')}
            <ArrowRight aria-hidden="true" className="rtl:rotate-180" />
          </a>
          <a href="/contact" className={buttonClasses({ variant: 'secondary', size: 'lg' })}>
            {t('closing.secondaryCta')}
          </a>
        </div>
      </div>
    </section>
  )
}
