import { ArrowRight, BellRing, Drill, type LucideIcon, PackageCheck, Send, ShieldCheck } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'

function Person({
  initials,
  name,
  role,
  accent,
}: {
  initials: string
  name: string
  role: string
  accent?: boolean
}) {
  return (
    <div className="flex min-w-0 items-center gap-2">
      <span
        aria-hidden="true"
        className={`inline-flex size-9 shrink-0 items-center justify-center rounded-full text-xs font-semibold ${
          accent ? 'bg-accent-soft text-accent-text' : 'bg-surface text-fg-muted'
        }`}
      >
        {initials}
      </span>
      <div className="min-w-0">
        <p className="text-xs text-fg-muted">{role}</p>
        <p className="truncate text-sm font-medium">{name}</p>
      </div>
    </div>
  )
}

const EVENTS: ReadonlyArray<{ key: 'requested' | 'accepted' | 'recorded'; icon: LucideIcon }> = [
  { key: 'requested', icon: Send },
  { key: 'accepted', icon: PackageCheck },
  { key: 'recorded', icon: ShieldCheck },
]

/**
 * A static picture of the product's core moment: a handover, accepted, on the ledger. Built from the
 * design system rather than a screenshot, so it stays sharp, themed and translated.
 */
export function HandoverPreview() {
  const { t } = useTranslation('landing')

  return (
    <div className="relative isolate mx-auto w-full max-w-md">
      {/* A soft glow in the accent colour; decoration only. */}
      <div
        aria-hidden="true"
        className="absolute -inset-4 -z-10 rounded-full bg-accent-soft opacity-70 blur-3xl sm:-inset-8"
      />
      {/* The notification Anna gets a moment later; decoration beside the card. */}
      <div
        aria-hidden="true"
        className="absolute -bottom-6 start-3 z-10 flex items-center gap-2.5 rounded-lg border border-border bg-surface py-2 ps-2 pe-3 shadow-md sm:-start-8"
      >
        <span className="inline-flex size-7 items-center justify-center rounded-full bg-success-soft text-success">
          <BellRing className="size-3.5" />
        </span>
        <span className="flex flex-col">
          <span className="text-xs font-medium text-fg">{t('preview.notification')}</span>
          <span className="text-xs text-fg-subtle">{t('preview.notificationTime')}</span>
        </span>
      </div>
      <figure className="rounded-xl border border-border bg-surface p-5 pb-9 shadow-md sm:p-6 sm:pb-10">
        <figcaption className="sr-only">{t('preview.label')}</figcaption>
        <div className="flex items-start gap-3 sm:gap-4">
          <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-accent-soft text-accent-text sm:size-12">
            <Drill className="size-5 sm:size-6" aria-hidden="true" />
          </span>
          <div className="min-w-0 flex-1">
            <p className="truncate font-semibold text-fg">{t('preview.item')}</p>
            <p className="truncate text-sm text-fg-muted">{t('preview.circle')}</p>
          </div>
          <Badge tone="success">{t('preview.accepted')}</Badge>
        </div>

        <div className="mt-5 flex items-center justify-between gap-3 rounded-lg bg-surface-2 p-3">
          <Person initials="AK" name="Anna" role={t('preview.from')} />
          <ArrowRight className="size-4 shrink-0 text-fg-subtle rtl:rotate-180" aria-hidden="true" />
          <Person initials="BM" name="Ben" role={t('preview.to')} accent />
        </div>

        <p className="mt-5 text-xs font-medium text-fg-subtle">{t('preview.timeline')}</p>
        <ol className="mt-3 flex flex-col gap-3">
          {EVENTS.map(({ key, icon: Icon }, index) => (
            <li key={key} className="relative flex gap-3">
              {index < EVENTS.length - 1 ? (
                <span aria-hidden="true" className="absolute top-7 bottom-[-12px] left-3.5 w-px bg-border" />
              ) : null}
              <span className="inline-flex size-7 shrink-0 items-center justify-center rounded-full border border-border bg-surface text-fg-muted">
                <Icon className="size-3.5" aria-hidden="true" />
              </span>
              <div className="flex min-w-0 flex-1 flex-wrap items-baseline justify-between gap-x-3 pt-1">
                <p className="text-sm text-fg">{t(`preview.events.${key}`)}</p>
                <time className="text-xs text-fg-subtle tabular-nums">{t(`preview.times.${key}`)}</time>
              </div>
            </li>
          ))}
        </ol>

        <div className="mt-5 flex items-center justify-between gap-3 border-t border-border pt-4">
          <code className="rounded-sm bg-surface-2 px-2 py-1 text-xs text-fg-muted">a3f9c2e1…7b04</code>
          <span className="inline-flex items-center gap-1.5 text-xs font-medium text-success">
            <ShieldCheck className="size-4" aria-hidden="true" />
            {t('preview.verified')}
          </span>
        </div>
      </figure>
    </div>
  )
}
