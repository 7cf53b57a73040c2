import type { UseQueryResult } from '@tanstack/react-query'
import { RotateCw } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useSearchParams } from 'react-router'
import { Alert } from '@/components/ui/alert'
import { Button, buttonClasses } from '@/components/ui/button'
import { Tabs } from '@/components/ui/tabs'
import { useAsks, useLoans } from '@/lib/lending/api'
import { failureMessage } from '@/lib/server-errors'
import { useDocumentTitle } from '@/lib/use-document-title'
import { AskRow, LoanRow } from '../components/loan-row'

const TABS = ['borrowed', 'lent', 'requested'] as const
type Tab = (typeof TABS)[number]
const EMPTY = {
  borrowed: 'page.emptyBorrowed',
  lent: 'page.emptyLent',
  requested: 'page.emptyRequested',
} as const

/** A list's loading skeleton, error with retry, empty state with the next step, or its rows. */
function ListState<T>({
  query,
  tab,
  row,
}: {
  query: UseQueryResult<T[]>
  tab: Tab
  row: (entry: T) => ReactNode
}) {
  const { t } = useTranslation('loans')
  if (query.isPending) {
    return (
      <div role="status" className="flex flex-col gap-3">
        <span className="sr-only">{t('page.loading')}</span>
        {[0, 1, 2].map((n) => (
          <span key={n} aria-hidden="true" className="block h-12 animate-pulse rounded-md bg-surface-2" />
        ))}
      </div>
    )
  }
  if (query.isError) {
    return (
      <Alert
        tone="error"
        action={
          <Button
            variant="secondary"
            size="sm"
            icon={<RotateCw aria-hidden="true" />}
            onClick={() => void query.refetch()}
          >
            {t('retry')}
          </Button>
        }
      >
        {failureMessage(query.error, t('page.loadFailed'))}
      </Alert>
    )
  }
  if (query.data.length === 0) {
    return (
      <div className="flex flex-col items-start gap-3 rounded-lg border border-dashed border-border p-6">
        <p className="font-medium">{t(EMPTY[tab])}</p>
        {tab !== 'lent' ? <p className="text-sm text-fg-muted">{t('page.emptyHint')}</p> : null}
        <Link to="/items" className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
          {t('page.toItems')}
        </Link>
      </div>
    )
  }
  return <ul className="flex flex-col divide-y divide-border">{query.data.map(row)}</ul>
}

/** /loans (issue 26): what I borrowed, what I lent and what I asked for, each with its dates. */
export function LoansPage() {
  const { t } = useTranslation('loans')
  useDocumentTitle(t('page.documentTitle'))
  const [params, setParams] = useSearchParams()
  const asked = params.get('tab')
  const tab: Tab = (TABS as readonly string[]).includes(asked ?? '') ? (asked as Tab) : 'borrowed'
  const borrowed = useLoans('borrowed')
  const lent = useLoans('lent')
  const requested = useAsks('mine')

  return (
    <main
      id="main-content"
      className="mx-auto flex w-full max-w-3xl flex-1 flex-col gap-6 px-4 py-8 sm:px-6 sm:py-12"
    >
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">{t('page.title')}</h1>
        <p className="text-fg-muted">{t('page.intro')}</p>
      </div>
      <Tabs
        label={t('page.tabs')}
        selected={tab}
        onSelect={(next) => setParams(next === 'borrowed' ? {} : { tab: next }, { replace: true })}
        items={[
          {
            key: 'borrowed',
            label: t('page.borrowed'),
            panel: (
              <ListState
                query={borrowed}
                tab="borrowed"
                row={(loan) => <LoanRow key={loan.id} loan={loan} role="borrowed" />}
              />
            ),
          },
          {
            key: 'lent',
            label: t('page.lent'),
            panel: (
              <ListState
                query={lent}
                tab="lent"
                row={(loan) => <LoanRow key={loan.id} loan={loan} role="lent" />}
              />
            ),
          },
          {
            key: 'requested',
            label: t('page.requested'),
            panel: (
              <ListState query={requested} tab="requested" row={(ask) => <AskRow key={ask.id} ask={ask} />} />
            ),
          },
        ]}
      />
    </main>
  )
}
