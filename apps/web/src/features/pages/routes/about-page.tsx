import { ArrowRight, Link2, type LucideIcon, ScanEye, UserCheck } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { PublicLayout } from '@/components/public/public-layout'
import { Badge } from '@/components/ui/badge'
import { buttonClasses } from '@/components/ui/button'
import { useDocumentTitle } from '@/lib/use-document-title'

const POINTS: ReadonlyArray<{ key: 'confirmed' | 'chained' | 'verifiable'; icon: LucideIcon }> = [
  { key: 'confirmed', icon: UserCheck },
  { key: 'chained', icon: Link2 },
  { key: 'verifiable', icon: ScanEye },
]

const GLANCE = ['based', 'team', 'data', 'status'] as const

const PROSE = 'flex flex-col gap-4 text-base leading-7 text-fg'
const H2 = 'text-xl font-semibold tracking-tight text-fg'

/** /about: mission, how the ledger builds trust, the team, the Beta (spec 000 §2). */
export function AboutPage() {
  const { t } = useTranslation('pages')
  useDocumentTitle(t('about.documentTitle'))
  const mission = t('about.mission.paragraphs', { returnObjects: true }) as string[]
  const team = t('about.team.paragraphs', { returnObjects: true }) as string[]
  const beta = t('about.beta.paragraphs', { returnObjects: true }) as string[]

  return (
    <PublicLayout namespace="pages">
      <div className="mx-auto flex w-full max-w-6xl flex-col gap-16 px-4 py-12 sm:px-6 lg:gap-20 lg:py-16">
        <div className="grid gap-10 lg:grid-cols-[minmax(0,1fr)_18rem] lg:items-end lg:gap-16">
          <header className="flex max-w-[72ch] flex-col gap-4">
            <p className="text-sm font-semibold text-accent-text">{t('about.eyebrow')}</p>
            <h1 className="text-xl font-semibold tracking-tight text-balance sm:text-2xl">
              {t('about.title')}
            </h1>
            <p className="text-base text-pretty text-fg-muted sm:text-lg">{t('about.intro')}</p>
          </header>
          <section
            aria-labelledby="glance-heading"
            className="rounded-lg border border-border bg-surface p-5 shadow-xs"
          >
            <h2 id="glance-heading" className="text-xs font-semibold tracking-wide text-fg-subtle uppercase">
              {t('about.glance.label')}
            </h2>
            <dl className="mt-4 flex flex-col divide-y divide-border">
              {GLANCE.map((key) => (
                <div
                  key={key}
                  className="flex items-baseline justify-between gap-4 py-2.5 first:pt-0 last:pb-0"
                >
                  <dt className="text-sm text-fg-muted">{t(`about.glance.items.${key}.term`)}</dt>
                  <dd className="text-end text-sm font-medium text-fg">
                    {t(`about.glance.items.${key}.value`)}
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        </div>

        <section aria-labelledby="mission-heading" className="max-w-[72ch]">
          <h2 id="mission-heading" className={H2}>
            {t('about.mission.heading')}
          </h2>
          <div className={`mt-4 ${PROSE}`}>
            {mission.map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
          </div>
        </section>

        <section aria-labelledby="ledger-heading">
          <div className="max-w-[72ch]">
            <h2 id="ledger-heading" className={H2}>
              {t('about.ledger.heading')}
            </h2>
            <p className="mt-4 text-base leading-7 text-fg">{t('about.ledger.intro')}</p>
          </div>
          <ol className="mt-8 grid gap-4 sm:gap-6 md:grid-cols-3">
            {POINTS.map(({ key, icon: Icon }) => (
              <li
                key={key}
                className="flex flex-col gap-3 rounded-lg border border-border bg-surface p-6 shadow-xs"
              >
                <span className="inline-flex size-10 items-center justify-center rounded-md bg-accent-soft text-accent-text">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <h3 className="font-semibold text-fg">{t(`about.ledger.points.${key}.title`)}</h3>
                <p className="text-sm text-fg-muted">{t(`about.ledger.points.${key}.body`)}</p>
              </li>
            ))}
          </ol>
        </section>

        <div className="grid gap-6 md:grid-cols-2">
          <section
            aria-labelledby="team-heading"
            className="rounded-lg border border-border bg-surface p-6 sm:p-8"
          >
            <h2 id="team-heading" className="text-lg font-semibold tracking-tight">
              {t('about.team.heading')}
            </h2>
            <div className={`mt-3 ${PROSE} text-fg-muted`}>
              {team.map((paragraph) => (
                <p key={paragraph}>{paragraph}</p>
              ))}
            </div>
          </section>
          <section
            aria-labelledby="beta-heading"
            className="rounded-lg border border-border bg-surface p-6 sm:p-8"
          >
            <h2
              id="beta-heading"
              className="flex flex-wrap items-center gap-3 text-lg font-semibold tracking-tight"
            >
              {t('about.beta.heading')}
              <Badge tone="accent">{t('chrome.beta')}</Badge>
            </h2>
            <div className={`mt-3 ${PROSE} text-fg-muted`}>
              {beta.map((paragraph) => (
                <p key={paragraph}>{paragraph}</p>
              ))}
            </div>
          </section>
        </div>

        <section
          aria-labelledby="about-cta-heading"
          className="flex flex-col items-start gap-6 rounded-xl border border-border bg-accent-soft p-6 sm:flex-row sm:items-center sm:justify-between sm:p-8"
        >
          <div className="flex flex-col gap-1">
            <h2 id="about-cta-heading" className="text-lg font-semibold tracking-tight text-fg">
              {t('about.cta.heading')}
            </h2>
            <p className="text-fg-muted">{t('about.cta.body')}</p>
          </div>
          <div className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
            <Link to="/register" className={buttonClasses({ size: 'lg' })}>
              {t('about.cta.primary')}
              <ArrowRight aria-hidden="true" className="rtl:rotate-180" />
            </Link>
            <Link to="/contact" className={buttonClasses({ variant: 'secondary', size: 'lg' })}>
              {t('about.cta.secondary')}
            </Link>
          </div>
        </section>
      </div>
    </PublicLayout>
  )
}
