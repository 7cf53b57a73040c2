import { MESSAGES } from '@circles/shared'
import { RotateCw } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, Navigate } from 'react-router'
import { Alert } from '@/components/ui/alert'
import { Staged } from '@/components/staged'
import { Button } from '@/components/ui/button'
import { invitationEmail, pendingInvitationToken } from '@/lib/session'
import { failureKey, translateServerError } from '@/lib/server-errors'
import { useDocumentTitle } from '@/lib/use-document-title'
import { useSession } from '@/lib/use-session'
import { useDashboardCircles, useDashboardStats, useRecentActivities } from '../api/dashboard'
import { useInbox } from '../api/inbox'
import { ActivityCard } from '../components/activity-card'
import { CirclesCard } from '../components/circles-card'
import { FirstRunCard } from '../components/first-run-card'
import { InboxCard } from '../components/inbox-card'
import { LendingCard } from '../components/lending-card'
import { QuickActions } from '../components/quick-actions'
import { StatsCard } from '../components/stats-card'

/** Spec 000 §2: an invitation still waiting from before sign-in wins over the dashboard. */
export function DashboardPage() {
  const [pendingToken] = useState(() => pendingInvitationToken.get())
  useEffect(() => {
    if (!pendingToken) return
    pendingInvitationToken.clear()
    invitationEmail.clear()
  }, [pendingToken])
  if (pendingToken) return <Navigate to={`/join?token=${encodeURIComponent(pendingToken)}`} replace />
  return <Dashboard />
}

const resendLink = (label: string) => (
  <Link to="/resend-verification" className="font-medium text-accent-text underline underline-offset-2">
    {label}
  </Link>
)

/** Spec 000 §8: 'Email not verified' gets its own text and the resend link; anything else one message. */
function DashboardError({ error, onRetry }: { error: Error; onRetry(): void }) {
  const { t } = useTranslation('dashboard')
  const key = failureKey(error)
  if (
    key === 'emailNotVerified' ||
    key === 'dashboardEmailNotVerified' ||
    error.message.includes('Email not verified')
  ) {
    return (
      <Alert tone="warning" action={resendLink(t('unverified.action'))}>
        {translateServerError(MESSAGES.dashboardEmailNotVerified)}
      </Alert>
    )
  }
  return (
    <Alert
      tone="error"
      action={
        <Button variant="secondary" size="sm" icon={<RotateCw aria-hidden="true" />} onClick={onRetry}>
          {t('error.retry')}
        </Button>
      }
    >
      {translateServerError(MESSAGES.dashboardLoadFailed)}
    </Alert>
  )
}

/** /dashboard (spec 000 §2): recent activity, the counts, the first circles and quick actions. */
function Dashboard() {
  const { t } = useTranslation('dashboard')
  const { user } = useSession()
  useDocumentTitle(t('documentTitle'))
  const activities = useRecentActivities()
  const stats = useDashboardStats()
  const circles = useDashboardCircles()
  const inbox = useInbox(user?.id)
  const failed = [activities, stats, circles].find((query) => query.isError)
  const retry = () => {
    for (const query of [activities, stats, circles]) if (query.isError) void query.refetch()
  }

  return (
    <main id="main-content" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6 sm:py-12">
      <div className="flex flex-col gap-6 sm:gap-8">
        <div className="flex flex-col gap-2">
          <h1 className="text-xl font-semibold tracking-tight sm:text-2xl">
            {user?.name ? t('heading', { name: user.name }) : t('headingAnonymous')}
          </h1>
          <p className="max-w-[60ch] text-fg-muted">{t('intro')}</p>
        </div>

        {user?.emailVerified === false ? (
          <Alert tone="warning" title={t('unverified.title')} action={resendLink(t('unverified.action'))}>
            {t('unverified.body')}
          </Alert>
        ) : null}
        {failed?.error ? <DashboardError error={failed.error} onRetry={retry} /> : null}

        <div className="grid items-start gap-6 lg:grid-cols-3">
          <div className="flex flex-col gap-6 lg:col-span-2">
            <Staged>
              {circles.data?.length === 0 ? <FirstRunCard /> : null}
              <InboxCard query={inbox} />
            </Staged>
            <Staged>
              <LendingCard />
            </Staged>
            <Staged>
              <ActivityCard query={activities} />
            </Staged>
          </div>
          <aside className="flex flex-col gap-6" aria-label={t('stats.title')}>
            <Staged>
              <StatsCard stats={stats.data} />
              <CirclesCard circles={circles.data} />
              <QuickActions />
            </Staged>
          </aside>
        </div>
      </div>
    </main>
  )
}
