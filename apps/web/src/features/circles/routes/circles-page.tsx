import { Plus } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Staged } from '@/components/staged'
import { buttonClasses } from '@/components/ui/button'
import { useDocumentTitle } from '@/lib/use-document-title'
import { useCircles } from '../api/get-circles'
import { CircleCard } from '../components/circle-card'
import { CirclesEmptyState } from '../components/circles-empty-state'
import { CirclesSkeleton } from '../components/circles-skeleton'
import { ErrorState } from '../components/page-states'
import { PageContainer } from '../components/page-container'

/** The retry of the list reloads the page (spec 001 §8). */
const reloadPage = () => window.location.reload()

/** /circles (spec 001 §2): the user's circles as a card grid, with create, empty and error states. */
export function CirclesPage() {
  const { t } = useTranslation('circles')
  useDocumentTitle(t('list.documentTitle'))
  const circles = useCircles()
  const hasCircles = (circles.data?.length ?? 0) > 0

  return (
    <PageContainer className="gap-8">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex flex-col gap-2">
          <h1 className="text-xl font-semibold tracking-tight sm:text-2xl">{t('list.title')}</h1>
          <p className="max-w-[60ch] text-fg-muted">{t('list.intro')}</p>
        </div>
        <Link to="/circles/create" className={buttonClasses({ className: 'shrink-0' })}>
          <Plus aria-hidden="true" />
          {t('list.create')}
        </Link>
      </div>

      <Staged>
        {circles.isPending ? (
          <CirclesSkeleton />
        ) : circles.isError ? (
          <ErrorState onRetry={reloadPage} retryLabel={t('states.reload')} error={circles.error} />
        ) : hasCircles ? (
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {circles.data.map((entry) => (
              <li key={entry.id}>
                <CircleCard entry={entry} />
              </li>
            ))}
          </ul>
        ) : (
          <CirclesEmptyState />
        )}
      </Staged>
    </PageContainer>
  )
}
