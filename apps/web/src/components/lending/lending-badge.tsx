import type { TItemLending } from '@circles/shared'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'

/**
 * What an item card says about lending (issue 26): 'On loan' or 'Overdue', and 'N waiting' when members
 * queue for it; nothing for an available item nobody waits for. Beside the card's other badges.
 */
export function LendingBadges({ lending }: { lending: TItemLending | undefined }) {
  const { t } = useTranslation('loans')
  if (!lending) return null
  const { loan, queueLength } = lending
  return (
    <>
      {loan ? (
        <Badge tone={loan.overdue || loan.recalled ? 'warning' : 'info'}>
          {loan.recalled ? t('badge.toReturn') : loan.overdue ? t('badge.overdue') : t('badge.onLoan')}
        </Badge>
      ) : null}
      {queueLength > 0 ? <Badge tone="neutral">{t('badge.waiting', { count: queueLength })}</Badge> : null}
    </>
  )
}

/** True when the card has a lending badge to show (so an empty badge row is left out). */
export const hasLendingBadges = (lending: TItemLending | undefined) =>
  Boolean(lending && (lending.loan || lending.queueLength > 0))
