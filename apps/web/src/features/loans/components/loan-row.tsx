import type { TBorrowRequest, TLoan } from '@circles/shared'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { PrivateImage } from '@/components/private-image'
import { Badge } from '@/components/ui/badge'
import { formatDue } from '@/lib/lending/dates'
import { personName } from '@/lib/person-name'

const ROW = 'flex items-center gap-3 py-3 first:pt-0 last:pb-0'

type RowItem = { itemId: string; item: { name: string; thumbnailUrl: string | null } }

/** The row's picture: the item's thumbnail (decorative, the link names it). */
function ItemThumb({ row }: { row: RowItem }) {
  return (
    <PrivateImage
      url={row.item.thumbnailUrl}
      alt=""
      className="size-12 shrink-0 rounded-md border border-border"
    />
  )
}

/** The item's name, linked to its page. */
function ItemLink({ row }: { row: RowItem }) {
  return (
    <Link
      to={`/items/${row.itemId}`}
      className="font-medium break-words text-accent-text underline-offset-2 hover:underline"
    >
      {row.item.name}
    </Link>
  )
}

/** One loan: the item (linked), the other person, the return date; overdue in a calm warning tone. */
export function LoanRow({ loan, role }: { loan: TLoan; role: 'borrowed' | 'lent' }) {
  const { t, i18n } = useTranslation('loans')
  const language = i18n.resolvedLanguage ?? i18n.language
  const date = formatDue(loan.dueAt, language)
  const other =
    role === 'borrowed'
      ? t('page.from', { name: personName(loan.lender.name) })
      : t('page.to', { name: personName(loan.borrower.name) })
  return (
    <li className={ROW}>
      <ItemThumb row={loan} />
      <div className="flex min-w-0 flex-1 flex-col gap-0.5">
        <ItemLink row={loan} />
        <p className="text-sm text-fg-muted">
          {other} · {loan.circle.name}
        </p>
        {loan.pendingReturn ? <p className="text-sm text-info">{t('page.returnPending')}</p> : null}
        {loan.pendingExtension?.status === 'PENDING' ? (
          <p className="text-sm text-fg-muted">
            {t('page.extensionPending', { date: formatDue(loan.pendingExtension.dueAt, language) })}
          </p>
        ) : null}
      </div>
      <div className="flex shrink-0 flex-col items-end gap-1 text-end">
        {loan.recalledAt ? (
          <Badge tone="warning">{t('page.recalled')}</Badge>
        ) : loan.overdue ? (
          <Badge tone="warning">{t('page.overdueSince', { date })}</Badge>
        ) : (
          <time dateTime={loan.dueAt} className="text-sm text-fg-muted">
            {t('page.due', { date })}
          </time>
        )}
      </div>
    </li>
  )
}

/** One of my asks: the item (linked), its owner, the wished date and my place in line. */
export function AskRow({ ask }: { ask: TBorrowRequest }) {
  const { t, i18n } = useTranslation('loans')
  const language = i18n.resolvedLanguage ?? i18n.language
  return (
    <li className={ROW}>
      <ItemThumb row={ask} />
      <div className="flex min-w-0 flex-1 flex-col gap-0.5">
        <ItemLink row={ask} />
        <p className="text-sm text-fg-muted">
          {t('page.of', { name: personName(ask.owner.name) })} ·{' '}
          {t('ask.wishedUntil', { date: formatDue(ask.wishedUntil, language) })}
        </p>
      </div>
      <p className="shrink-0 text-end text-sm font-medium">
        {ask.status === 'OFFERED'
          ? t('ask.offeredToMe', { name: personName(ask.owner.name) })
          : ask.position
            ? t('ask.position', { count: ask.position, ordinal: true })
            : t('ask.waiting')}
      </p>
    </li>
  )
}
