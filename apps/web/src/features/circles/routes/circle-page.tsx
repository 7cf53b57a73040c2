import type { TCircleDetail } from '@circles/shared'
import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import { Staged } from '@/components/staged'
import { useDocumentTitle } from '@/lib/use-document-title'
import { useSession } from '@/lib/use-session'
import { isCircleId, useCircle } from '../api/get-circle'
import { BackLink } from '../components/back-link'
import { CircleOverview } from '../components/circle-overview'
import { CircleInvitations } from '../components/invitations/circle-invitations'
import { ItemsCard } from '../components/items-card'
import { MembersCard } from '../components/members-card'
import { MembershipCard } from '../components/membership-card'
import { ErrorState, LoadingState, NotFoundState } from '../components/page-states'
import { PageContainer } from '../components/page-container'
import { isNotFound } from '../lib/errors'
import { NoLongerMemberNotice } from '@/components/no-longer-member-notice'
import { departureOf } from '@/lib/no-longer-member'

function CircleDetail({ circle, viewerId }: { circle: TCircleDetail; viewerId: string | undefined }) {
  const { t } = useTranslation('circles')
  const viewerIsAdmin = viewerId !== undefined && circle.adminId === viewerId

  return (
    <>
      <BackLink to="/circles">{t('detail.back')}</BackLink>
      <CircleOverview circle={circle} role={viewerIsAdmin ? 'ADMIN' : 'MEMBER'} />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_24rem]">
        {/* Issue 27: the cards come a part per task (components/staged.tsx), in the order they appear. */}
        <div className="flex min-w-0 flex-col gap-6">
          <Staged>
            <ItemsCard circle={circle} />
          </Staged>
          <Staged>
            <MembersCard circle={circle} viewerId={viewerId} />
          </Staged>
        </div>
        <div className="flex min-w-0 flex-col gap-6">
          <Staged>
            {viewerIsAdmin ? <CircleInvitations circleId={circle.id} /> : null}
            <MembershipCard circle={circle} viewerIsAdmin={viewerIsAdmin} />
          </Staged>
        </div>
      </div>
    </>
  )
}

/**
 * /circles/:id and /circle/:id, one screen (spec 001 §2): the circle, its items and members; for the
 * admin also editing, invitations and member management. Not a member, or no such circle: a 404.
 */
export function CirclePage() {
  const { t } = useTranslation('circles')
  const { id = '' } = useParams()
  const validId = isCircleId(id)
  const circle = useCircle(id, { enabled: validId })
  const { user } = useSession()
  const notFound = !validId || (circle.isError && isNotFound(circle.error))
  // A former member is told they were removed (or left) instead of 'Circle not found' (issue 23).
  const departure = departureOf(circle.error)

  useDocumentTitle(
    departure
      ? t('detail.documentTitle', { name: departure.circle.name })
      : notFound
        ? `${t('states.notFoundTitle')} · Circles`
        : circle.data
          ? t('detail.documentTitle', { name: circle.data.name })
          : t('detail.documentTitleFallback'),
  )

  return (
    <PageContainer className="gap-6">
      {departure ? (
        <NoLongerMemberNotice departure={departure} />
      ) : notFound ? (
        <NotFoundState />
      ) : circle.data ? (
        <CircleDetail circle={circle.data} viewerId={user?.id} />
      ) : circle.isError ? (
        <ErrorState
          onRetry={() => void circle.refetch()}
          retryLabel={t('states.retry')}
          error={circle.error}
        />
      ) : (
        <LoadingState label={t('detail.loading')} />
      )}
    </PageContainer>
  )
}
