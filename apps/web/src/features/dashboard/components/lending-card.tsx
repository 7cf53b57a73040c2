import type { TBorrowRequest, TLoan } from '@circles/shared'
import { ArrowRight, RotateCw } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { PrivateImage } from '@/components/private-image'
import { Button } from '@/components/ui/button'
import { Card, CardTitle } from '@/components/ui/card'
import { useAsks, useLoans } from '@/lib/lending/api'
import { formatDue, isDueSoon } from '@/lib/lending/dates'
import { personName } from '@/lib/person-name'

type Entry = {
  id: string
  itemId: string
  name: string
  thumbnailUrl: string | null
  line: string
  warn?: boolean
}

function Section({ id, title, entries }: { id: string; title: string; entries: Entry[] }) {
  if (entries.length === 0) return null
  return (
    <section aria-labelledby={id} className="flex flex-col gap-2">
      <h3 id={id} className="text-sm font-semibold text-fg-muted">
        {title}
      </h3>
      <ul className="flex flex-col gap-2">
        {entries.map((entry) => (
          <li key={entry.id} className="flex items-center gap-3">
            <PrivateImage
              url={entry.thumbnailUrl}
              alt=""
              className="size-10 shrink-0 rounded-md border border-border"
            />
            <div className="flex min-w-0 flex-col">
              <Link
                to={`/items/${entry.itemId}`}
                className="text-sm font-medium break-words text-accent-text underline-offset-2 hover:underline"
              >
                {entry.name}
              </Link>
              <span className={entry.warn ? 'text-sm text-warning' : 'text-sm text-fg-muted'}>
                {entry.line}
              </span>
            </div>
          </li>
        ))}
      </ul>
    </section>
  )
}

/**
 * The dashboard's lending (issue 26): 'Overdue' (borrowed or lent past their date), 'Due back soon'
 * (my lendings due within three days), 'Asked of me' (open asks for my items), 'My loans' (what I
 * borrowed). A section with nothing in it is left out; with nothing at all, one calm line.
 */
export function LendingCard() {
  const { t, i18n } = useTranslation('loans')
  const language = i18n.resolvedLanguage ?? i18n.language
  const borrowed = useLoans('borrowed')
  const lent = useLoans('lent')
  const asks = useAsks('of-me')
  const queries = [borrowed, lent, asks]
  const date = (iso: string) => formatDue(iso, language)

  let body
  if (queries.some((query) => query.isPending)) {
    body = (
      <div role="status" className="py-2">
        <span className="sr-only">{t('dashboard.loading')}</span>
        <span aria-hidden="true" className="block h-5 w-3/4 animate-pulse rounded-sm bg-surface-2" />
      </div>
    )
  } else if (queries.some((query) => query.isError)) {
    body = (
      <div className="flex flex-wrap items-center gap-3 py-2">
        <p className="text-sm text-fg-muted">{t('dashboard.loadFailed')}</p>
        <Button
          variant="secondary"
          size="sm"
          icon={<RotateCw aria-hidden="true" />}
          onClick={() => {
            for (const query of queries) if (query.isError) void query.refetch()
          }}
        >
          {t('retry')}
        </Button>
      </div>
    )
  } else {
    const mine = borrowed.data ?? []
    const theirs = lent.data ?? []
    const loanEntry = (loan: TLoan, role: 'borrowed' | 'lent', line: string, warn = false): Entry => ({
      id: `${role}-${loan.id}`,
      itemId: loan.itemId,
      name: loan.item.name,
      thumbnailUrl: loan.item.thumbnailUrl,
      line,
      warn,
    })
    const who = (loan: TLoan, role: 'borrowed' | 'lent') =>
      role === 'borrowed'
        ? t('page.from', { name: personName(loan.lender.name) })
        : t('page.to', { name: personName(loan.borrower.name) })
    const late = (loan: TLoan) => loan.overdue || loan.recalledAt !== null
    const overdue = [
      ...mine
        .filter(late)
        .map((loan) =>
          loanEntry(
            loan,
            'borrowed',
            `${t('page.overdueSince', { date: date(loan.dueAt) })} · ${who(loan, 'borrowed')}`,
            true,
          ),
        ),
      ...theirs
        .filter(late)
        .map((loan) =>
          loanEntry(
            loan,
            'lent',
            `${loan.recalledAt ? t('page.recalled') : t('page.overdueSince', { date: date(loan.dueAt) })} · ${who(loan, 'lent')}`,
            true,
          ),
        ),
    ]
    const soon = theirs
      .filter((loan) => !late(loan) && isDueSoon(loan.dueAt))
      .map((loan) =>
        loanEntry(loan, 'lent', `${t('page.due', { date: date(loan.dueAt) })} · ${who(loan, 'lent')}`),
      )
    const asked = (asks.data ?? [])
      .filter((ask: TBorrowRequest) => ask.status === 'WAITING')
      .map((ask) => ({
        id: ask.id,
        itemId: ask.itemId,
        name: ask.item.name,
        thumbnailUrl: ask.item.thumbnailUrl,
        line: `${t('dashboard.asks', { name: personName(ask.asker.name) })} · ${t('ask.wishedUntil', { date: date(ask.wishedUntil) })}`,
      }))
    const myLoans = mine
      .filter((loan) => !late(loan))
      .map((loan) =>
        loanEntry(
          loan,
          'borrowed',
          `${t('page.due', { date: date(loan.dueAt) })} · ${who(loan, 'borrowed')}`,
        ),
      )
    body =
      overdue.length + soon.length + asked.length + myLoans.length === 0 ? (
        <p className="py-2 text-sm text-fg-muted">{t('dashboard.empty')}</p>
      ) : (
        <div className="flex flex-col gap-5">
          <Section id="lending-overdue" title={t('dashboard.overdue')} entries={overdue} />
          <Section id="lending-soon" title={t('dashboard.dueSoon')} entries={soon} />
          <Section id="lending-asked" title={t('dashboard.askedOfMe')} entries={asked} />
          <Section id="lending-mine" title={t('dashboard.myLoans')} entries={myLoans} />
        </div>
      )
  }
  return (
    <Card className="flex flex-col gap-3 p-5 sm:p-6">
      <div className="flex items-center justify-between gap-3">
        <CardTitle>{t('dashboard.title')}</CardTitle>
        <Link
          to="/loans"
          className="inline-flex items-center gap-1 text-sm font-medium text-accent-text underline-offset-2 hover:underline"
        >
          {t('dashboard.all')}
          <ArrowRight aria-hidden="true" className="size-4 rtl:rotate-180" />
        </Link>
      </div>
      {body}
    </Card>
  )
}
