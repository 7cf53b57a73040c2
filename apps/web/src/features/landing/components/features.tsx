import {
  ArrowLeftRight,
  BellRing,
  Boxes,
  Fingerprint,
  ShieldCheck,
  Smartphone,
  Star,
  UsersRound,
  type LucideIcon,
} from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { ChainVisual } from './chain-visual'
import { SECTION_INNER, SectionHeading } from './section-heading'

type FeatureKey = 'circles' | 'inventory' | 'handovers' | 'notifications' | 'security' | 'app'

const FEATURES: ReadonlyArray<{ key: FeatureKey; icon: LucideIcon }> = [
  { key: 'circles', icon: UsersRound },
  { key: 'inventory', icon: Boxes },
  { key: 'handovers', icon: ArrowLeftRight },
  { key: 'notifications', icon: BellRing },
  { key: 'security', icon: Fingerprint },
  { key: 'app', icon: Smartphone },
]

const CARD = 'flex rounded-lg border border-border bg-surface p-6 shadow-xs'
const ICON = 'inline-flex size-10 items-center justify-center rounded-md bg-accent-soft text-accent-text'

/** The #features anchor: the ledger first, then what a group uses every day, then what is coming. */
export function Features() {
  const { t } = useTranslation('landing')

  return (
    <section id="features" aria-labelledby="features-heading" className="scroll-mt-16">
      <div className={SECTION_INNER}>
        <SectionHeading
          id="features-heading"
          eyebrow={t('features.eyebrow')}
          title={t('features.heading')}
          intro={t('features.intro')}
        />
        <ul className="mt-12 grid gap-4 sm:gap-6 md:grid-cols-2 lg:grid-cols-3">
          <li className={`${CARD} flex-col md:col-span-2 lg:col-span-3`}>
            <div className="grid gap-6 lg:grid-cols-[1fr_1.6fr] lg:items-center lg:gap-10">
              <div className="flex flex-col gap-3">
                <span className={ICON}>
                  <ShieldCheck className="size-5" aria-hidden="true" />
                </span>
                <h3 className="font-semibold text-fg">{t('features.items.ledger.title')}</h3>
                <p className="text-sm text-fg-muted">{t('features.items.ledger.body')}</p>
              </div>
              <div className="rounded-md bg-surface-2 p-4 sm:p-5">
                <ChainVisual />
              </div>
            </div>
          </li>
          {FEATURES.map(({ key, icon: Icon }) => (
            <li key={key} className={`${CARD} flex-row gap-4 md:flex-col md:gap-3`}>
              <span className={`${ICON} shrink-0`}>
                <Icon className="size-5" aria-hidden="true" />
              </span>
              <div className="flex flex-col gap-1.5 md:gap-3">
                <h3 className="font-semibold text-fg">{t(`features.items.${key}.title`)}</h3>
                <p className="text-sm text-fg-muted">{t(`features.items.${key}.body`)}</p>
              </div>
            </li>
          ))}
          <li className="flex flex-col gap-3 rounded-lg border border-dashed border-border-strong p-6 sm:flex-row sm:items-center sm:gap-5 md:col-span-2 lg:col-span-3">
            <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-md bg-surface-2 text-fg-muted">
              <Star className="size-5" aria-hidden="true" />
            </span>
            <div className="flex flex-1 flex-col gap-1">
              <h3 className="flex flex-wrap items-center gap-x-3 gap-y-1 font-semibold text-fg">
                {t('features.items.reputation.title')}
                <Badge tone="info">{t('features.comingSoon')}</Badge>
              </h3>
              <p className="text-sm text-fg-muted">{t('features.items.reputation.body')}</p>
            </div>
          </li>
        </ul>
      </div>
    </section>
  )
}
