import { useQueryClient } from '@tanstack/react-query'
import { WifiOff } from 'lucide-react'
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import { useOffline } from './use-offline'
import { dateFormat, relativeFormat } from '@/lib/intl-formats'

/** Spec 000 §9's relative times (as the dashboard's feed), a short date after a week. */
function relativeTime(at: number, language: string, now: number): string {
  const seconds = Math.max(0, Math.floor((now - at) / 1000))
  const format = (value: number, unit: Intl.RelativeTimeFormatUnit) =>
    relativeFormat(language, { numeric: 'auto' }).format(-value, unit)
  if (seconds < 60) return format(seconds, 'second')
  if (seconds < 3600) return format(Math.floor(seconds / 60), 'minute')
  if (seconds < 86_400) return format(Math.floor(seconds / 3600), 'hour')
  if (seconds < 7 * 86_400) return format(Math.floor(seconds / 86_400), 'day')
  return dateFormat(language, { dateStyle: 'medium' }).format(new Date(at))
}

/**
 * When the data the page shows was fetched: the oldest fetch among the queries on screen (those with
 * an observer and data). Null when nothing is shown from the cache.
 */
export function useShownDataTime(): number | null {
  const queryClient = useQueryClient()
  const cache = queryClient.getQueryCache()
  const subscribe = useCallback((listener: () => void) => cache.subscribe(listener), [cache])
  const oldest = useCallback(() => {
    let at: number | null = null
    for (const query of cache.getAll()) {
      if (query.getObserversCount() === 0 || query.state.data === undefined) continue
      const updated = query.state.dataUpdatedAt
      if (updated > 0 && (at === null || updated < at)) at = updated
    }
    return at
  }, [cache])
  return useSyncExternalStore(subscribe, oldest, () => null)
}

/** The time, again every 30 s while shown: the relative time stays true. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000)
    return () => clearInterval(timer)
  }, [])
  return now
}

/** Why an action is disabled while offline, or null online. */
export function useOfflineReason(): string | null {
  const offline = useOffline()
  const { t } = useTranslation()
  return offline ? t('offline.actionReason') : null
}

/**
 * The banner while offline (issue 27, docs/decisions/0054): 'Offline, as of <time>' over pages that
 * show stored data, and that changes wait for a connection. One for the whole app (root layout).
 */
export function OfflineNotice() {
  const offline = useOffline()
  const shownAt = useShownDataTime()
  if (!offline) return null
  return <OfflineBanner shownAt={shownAt} />
}

function OfflineBanner({ shownAt }: { shownAt: number | null }) {
  const { t, i18n } = useTranslation()
  const language = i18n.resolvedLanguage ?? i18n.language
  const now = useNow()

  const title =
    shownAt === null
      ? t('offline.title')
      : t('offline.asOf', { time: relativeTime(shownAt, language, Math.max(now, shownAt)) })
  return (
    <div
      role="status"
      data-testid="offline-notice"
      className="flex items-center justify-center gap-2 border-b border-warning/30 bg-warning-soft px-4 py-2 text-sm text-fg"
    >
      <WifiOff aria-hidden="true" className="size-4 shrink-0" />
      <p>
        <span className="font-semibold">
          {shownAt === null ? (
            title
          ) : (
            <time
              dateTime={new Date(shownAt).toISOString()}
              title={new Date(shownAt).toLocaleString(language)}
            >
              {title}
            </time>
          )}
        </span>{' '}
        <span className="text-fg-muted">
          {shownAt === null ? t('offline.bodyNothingShown') : t('offline.body')}
        </span>
      </p>
    </div>
  )
}

/** A form's line while offline: why its button is disabled. */
export function OfflineReason({ reason }: { reason?: string }) {
  const fallback = useOfflineReason()
  if (!fallback) return null
  return (
    <p role="note" data-testid="offline-reason" className="flex items-center gap-1.5 text-sm text-fg-muted">
      <WifiOff aria-hidden="true" className="size-4 shrink-0" />
      {reason ?? fallback}
    </p>
  )
}
