import type { TActivity } from '@circles/shared'
import type { UseQueryResult } from '@tanstack/react-query'
import {
  AlarmClock,
  ArrowLeftRight,
  CalendarClock,
  CircleCheckBig,
  Inbox,
  type LucideIcon,
  Mail,
  PackagePlus,
  Undo2,
  UserMinus,
} from 'lucide-react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Card, CardTitle } from '@/components/ui/card'
import { activityHref, activityText } from '@/lib/activity-text'
import { relativeTime } from '../lib/relative-time'

const ICONS: Record<TActivity['type'], { icon: LucideIcon; tone: string }> = {
  PENDING_HANDOVER: { icon: ArrowLeftRight, tone: 'bg-warning-soft text-warning' },
  CONFIRMED_HANDOVER: { icon: CircleCheckBig, tone: 'bg-success-soft text-success' },
  AUTO_TRANSFER: { icon: Undo2, tone: 'bg-surface-2 text-fg-muted' },
  NEW_ITEM: { icon: PackagePlus, tone: 'bg-accent-soft text-accent-text' },
  CIRCLE_INVITATION: { icon: Mail, tone: 'bg-info-soft text-info' },
  REMOVED_FROM_CIRCLE: { icon: UserMinus, tone: 'bg-surface-2 text-fg-muted' },
  BORROW_REQUESTED: { icon: Inbox, tone: 'bg-info-soft text-info' },
  BORROW_DECLINED: { icon: Undo2, tone: 'bg-surface-2 text-fg-muted' },
  BORROW_OFFERED: { icon: ArrowLeftRight, tone: 'bg-warning-soft text-warning' },
  // Issue 26 (h-loans): the steps of a loan.
  LOAN_STARTED: { icon: CircleCheckBig, tone: 'bg-success-soft text-success' },
  LOAN_RETURN_REQUESTED: { icon: Inbox, tone: 'bg-warning-soft text-warning' },
  LOAN_RETURNED: { icon: Undo2, tone: 'bg-success-soft text-success' },
  LOAN_EXTENSION_REQUESTED: { icon: Inbox, tone: 'bg-warning-soft text-warning' },
  LOAN_EXTENSION_ANSWERED: { icon: ArrowLeftRight, tone: 'bg-info-soft text-info' },
  LOAN_DUE_CHANGED: { icon: ArrowLeftRight, tone: 'bg-info-soft text-info' },
  LOAN_RECALLED: { icon: UserMinus, tone: 'bg-surface-2 text-fg-muted' },
  LOAN_DUE_SOON: { icon: CalendarClock, tone: 'bg-info-soft text-info' },
  LOAN_DUE_TODAY: { icon: CalendarClock, tone: 'bg-warning-soft text-warning' },
  LOAN_OVERDUE: { icon: AlarmClock, tone: 'bg-danger-soft text-danger' },
  LOAN_OVERDUE_LENDER: { icon: AlarmClock, tone: 'bg-danger-soft text-danger' },
}

/** A request answered or cancelled since loses the 'open' colour of a request. */
function look(activity: TActivity) {
  if (activity.type !== 'PENDING_HANDOVER') return ICONS[activity.type]
  if (activity.handoverStatus === 'CONFIRMED') return ICONS.CONFIRMED_HANDOVER
  if (activity.handoverStatus === 'REJECTED' || activity.handoverStatus === 'CANCELLED') {
    return { icon: ArrowLeftRight, tone: 'bg-surface-2 text-fg-muted' }
  }
  return ICONS.PENDING_HANDOVER
}

/** Re-renders every 30 s, so "now" becomes "1 minute ago" while the page stays open. */
function useNow(intervalMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs)
    return () => clearInterval(timer)
  }, [intervalMs])
  return now
}

function ActivityRow({ activity, now }: { activity: TActivity; now: number }) {
  const { t, i18n } = useTranslation()
  const { icon: Icon, tone } = look(activity)
  return (
    <li>
      <Link
        to={activityHref(activity)}
        className="group flex items-start gap-3 rounded-md px-2 py-3 transition-colors duration-150 hover:bg-surface-2"
      >
        <span className={`inline-flex size-9 shrink-0 items-center justify-center rounded-full ${tone}`}>
          <Icon aria-hidden="true" className="size-4" />
        </span>
        <span className="flex min-w-0 flex-1 flex-col gap-0.5">
          <span className="text-sm break-words text-fg group-hover:text-accent-text">
            {activityText(t, activity)}
          </span>
          <time dateTime={activity.timestamp} className="text-xs text-fg-muted">
            {relativeTime(activity.timestamp, i18n.language, now)}
          </time>
        </span>
      </Link>
    </li>
  )
}

function ActivitySkeleton() {
  const { t } = useTranslation('dashboard')
  return (
    <div role="status">
      <span className="sr-only">{t('activity.loading')}</span>
      <ul aria-hidden="true" className="flex flex-col">
        {[0, 1, 2, 3].map((key) => (
          <li key={key} className="flex items-start gap-3 px-2 py-3">
            <span className="size-9 shrink-0 animate-pulse rounded-full bg-surface-2" />
            <span className="flex flex-1 flex-col gap-2 pt-1">
              <span className="h-4 w-4/5 animate-pulse rounded-sm bg-surface-2" />
              <span className="h-3 w-24 animate-pulse rounded-sm bg-surface-2" />
            </span>
          </li>
        ))}
      </ul>
    </div>
  )
}

/** Recent activity (spec 000 §2): newest first, each entry linking to its item or circle. */
export function ActivityCard({ query }: { query: UseQueryResult<TActivity[]> }) {
  const { t } = useTranslation('dashboard')
  const now = useNow()
  let body
  if (query.isPending) body = <ActivitySkeleton />
  else if (query.isError)
    body = <p className="px-2 py-6 text-sm text-fg-muted">{t('activity.unavailable')}</p>
  else if (query.data.length === 0) {
    body = (
      <div className="flex flex-col items-center gap-3 px-4 py-10 text-center">
        <span className="inline-flex size-11 items-center justify-center rounded-full bg-surface-2 text-fg-muted">
          <Inbox aria-hidden="true" className="size-5" />
        </span>
        <p className="font-medium text-fg">{t('activity.emptyTitle')}</p>
        <p className="max-w-[44ch] text-sm text-fg-muted">{t('activity.emptyBody')}</p>
      </div>
    )
  } else {
    body = (
      <ul aria-label={t('activity.title')} className="-mx-2 flex flex-col divide-y divide-border">
        {query.data.map((activity) => (
          <ActivityRow key={activity.id} activity={activity} now={now} />
        ))}
      </ul>
    )
  }
  return (
    <Card className="flex flex-col gap-3 p-5 sm:p-6">
      <CardTitle>{t('activity.title')}</CardTitle>
      {body}
    </Card>
  )
}
