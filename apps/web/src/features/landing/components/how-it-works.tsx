import { Check, Drill, Handshake, KeyRound, Mail, Package, Projector, QrCode, Users, X } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { SECTION_INNER, SectionHeading } from './section-heading'

function Avatar({ initials, tone }: { initials: string; tone: string }) {
  return (
    <span
      className={`inline-flex size-9 items-center justify-center rounded-full border-2 border-surface text-xs font-semibold ${tone}`}
    >
      {initials}
    </span>
  )
}

/** Step 1: a circle's members and the two ways to invite. */
function CircleVisual() {
  const { t } = useTranslation('landing')
  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center justify-between gap-3">
        <div className="flex -space-x-2 rtl:space-x-reverse">
          <Avatar initials="AK" tone="bg-accent-soft text-accent-text" />
          <Avatar initials="BM" tone="bg-info-soft text-info" />
          <Avatar initials="CL" tone="bg-success-soft text-success" />
          <Avatar initials="DS" tone="bg-warning-soft text-warning" />
        </div>
        <span className="text-xs text-fg-muted">{t('howItWorks.visual.members')}</span>
      </div>
      <div className="flex items-center gap-2 rounded-md border border-dashed border-border-strong px-3 py-2 text-xs text-fg-muted">
        <Mail className="size-3.5 shrink-0" />
        <QrCode className="size-3.5 shrink-0" />
        <span className="truncate">{t('howItWorks.visual.invite')}</span>
      </div>
    </div>
  )
}

/** Step 2: a few items with their state. */
function ItemsVisual() {
  const { t } = useTranslation('landing')
  const rows = [
    { icon: Drill, name: t('howItWorks.visual.items.drill'), state: t('howItWorks.visual.lent'), lent: true },
    {
      icon: Projector,
      name: t('howItWorks.visual.items.projector'),
      state: t('howItWorks.visual.available'),
    },
    { icon: KeyRound, name: t('howItWorks.visual.items.key'), state: t('howItWorks.visual.available') },
  ]
  return (
    <ul className="flex flex-col gap-1.5">
      {rows.map(({ icon: Icon, name, state, lent }) => (
        <li key={name} className="flex items-center gap-2 rounded-md bg-surface px-2 py-1.5 text-xs">
          <Icon className="size-3.5 shrink-0 text-fg-muted" />
          <span className="min-w-0 flex-1 truncate font-medium text-fg">{name}</span>
          <span
            className={`shrink-0 rounded-full px-2 py-0.5 ${lent ? 'bg-accent-soft text-accent-text' : 'bg-success-soft text-success'}`}
          >
            {state}
          </span>
        </li>
      ))}
    </ul>
  )
}

/** Step 3: the request the receiver sees. */
function HandoverVisual() {
  const { t } = useTranslation('landing')
  return (
    <div className="flex flex-col gap-3 rounded-md bg-surface p-3">
      <p className="text-xs font-medium text-fg">{t('howItWorks.visual.request')}</p>
      <div className="flex gap-2">
        <span className="inline-flex h-7 flex-1 items-center justify-center gap-1 rounded-sm bg-accent text-xs font-medium text-accent-fg">
          <Check className="size-3.5" />
          {t('howItWorks.visual.accept')}
        </span>
        <span className="inline-flex h-7 flex-1 items-center justify-center gap-1 rounded-sm border border-border text-xs font-medium text-fg-muted">
          <X className="size-3.5" />
          {t('howItWorks.visual.decline')}
        </span>
      </div>
    </div>
  )
}

const STEPS: ReadonlyArray<{
  key: 'circle' | 'items' | 'handover'
  icon: typeof Users
  visual: () => ReactNode
}> = [
  { key: 'circle', icon: Users, visual: CircleVisual },
  { key: 'items', icon: Package, visual: ItemsVisual },
  { key: 'handover', icon: Handshake, visual: HandoverVisual },
]

/** The #how-it-works anchor of spec 000 §2. */
export function HowItWorks() {
  const { t } = useTranslation('landing')

  return (
    <section
      id="how-it-works"
      aria-labelledby="how-it-works-heading"
      className="scroll-mt-16 border-y border-border bg-surface"
    >
      <div className={SECTION_INNER}>
        <SectionHeading
          id="how-it-works-heading"
          eyebrow={t('howItWorks.eyebrow')}
          title={t('howItWorks.heading')}
          intro={t('howItWorks.intro')}
        />
        <ol className="mt-12 grid gap-4 sm:gap-6 md:grid-cols-3">
          {STEPS.map(({ key, icon: Icon, visual: Visual }, index) => (
            <li key={key} className="flex flex-col overflow-hidden rounded-lg border border-border bg-bg">
              {/* The picture repeats the text below it, so screen readers skip it. */}
              <div
                aria-hidden="true"
                className="flex min-h-40 flex-col justify-center border-b border-border bg-surface-2 p-5"
              >
                <Visual />
              </div>
              <div className="flex flex-col gap-3 p-6">
                <div className="flex items-center gap-3">
                  <span className="inline-flex size-8 items-center justify-center rounded-md bg-accent-soft text-accent-text">
                    <Icon className="size-4" aria-hidden="true" />
                  </span>
                  <span className="text-xs font-semibold tracking-wide text-fg-subtle uppercase">
                    {t('howItWorks.stepLabel', { number: index + 1 })}
                  </span>
                </div>
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
