import { useTranslation } from 'react-i18next'

/** Three placeholder cards in the grid's shape while the list loads; announced once as "Loading". */
export function CirclesSkeleton() {
  const { t } = useTranslation('circles')
  return (
    <div role="status">
      <span className="sr-only">{t('list.loading')}</span>
      <ul aria-hidden="true" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {[0, 1, 2].map((key) => (
          <li
            key={key}
            className="flex h-40 flex-col gap-3 rounded-lg border border-border bg-surface p-5 shadow-sm"
          >
            <div className="flex items-center justify-between gap-3">
              <span className="h-5 w-2/5 animate-pulse rounded-sm bg-surface-2" />
              <span className="h-5 w-16 animate-pulse rounded-full bg-surface-2" />
            </div>
            <span className="h-4 w-4/5 animate-pulse rounded-sm bg-surface-2" />
            <span className="h-4 w-3/5 animate-pulse rounded-sm bg-surface-2" />
            <span className="mt-auto h-4 w-full animate-pulse rounded-sm bg-surface-2" />
          </li>
        ))}
      </ul>
    </div>
  )
}
