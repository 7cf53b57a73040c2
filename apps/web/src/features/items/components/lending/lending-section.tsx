import type { TItem } from '@circles/shared'
import { RotateCw } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { LendingStatus } from '@/components/lending/lending-status'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { useLoan } from '@/lib/lending/api'
import { failureMessage } from '@/lib/server-errors'
import { BorrowQueue } from './borrow-queue'
import { LoanActions } from './loan-actions'

/**
 * The item page's lending (issue 26): its status for everyone, the loan's actions for its lender and
 * borrower (with the loan fetched for its pending return and extension), and the asks to borrow.
 */
export function LendingSection({ item, viewerId }: { item: TItem; viewerId: string | undefined }) {
  const { t } = useTranslation('loans')
  const out = item.lending.loan
  const involved = Boolean(out && (out.borrower.id === viewerId || item.ownerId === viewerId))
  const loan = useLoan(involved ? out?.id : undefined)
  return (
    <>
      <section
        aria-labelledby="item-lending"
        className="flex flex-col gap-3 rounded-lg border border-border bg-surface p-5 shadow-sm"
      >
        <h2 id="item-lending" className="font-semibold tracking-tight">
          {t('section.title')}
        </h2>
        <LendingStatus lending={item.lending} loan={loan.data} />
        {!involved ? null : loan.isPending ? (
          <Spinner label={t('section.loading')} />
        ) : loan.isError ? (
          <Alert
            tone="error"
            action={
              <Button
                variant="secondary"
                size="sm"
                icon={<RotateCw aria-hidden="true" />}
                onClick={() => void loan.refetch()}
              >
                {t('retry')}
              </Button>
            }
          >
            {failureMessage(loan.error, t('section.loadFailed'))}
          </Alert>
        ) : (
          <LoanActions loan={loan.data} viewerId={viewerId} />
        )}
      </section>
      <BorrowQueue item={item} viewerId={viewerId} />
    </>
  )
}
